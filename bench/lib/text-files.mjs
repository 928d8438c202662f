/** The files the read rows read, and the check that a read returned all of one. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const KIB = 1024;
export const MIB = 1024 * 1024;

/** The line every text file repeats (without its newline). */
export const LINE = 'The quick brown fox jumps over the lazy dog; 0123456789 ABCDEFGHIJ.';

/** Printable ASCII lines, so bytes equal characters and JSON escaping is ordinary. */
export function textOfSize(bytes) {
  const line = `${LINE}\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/** Writes `<dir>/<name>` of `bytes` bytes; returns {path, bytes, sha256} plus `extra`. */
export function writeTextFile(dir, name, bytes, extra = {}) {
  const filePath = path.join(dir, name);
  const data = Buffer.from(textOfSize(bytes));
  fs.writeFileSync(filePath, data);
  return { ...extra, name, bytes, path: filePath, sha256: createHash('sha256').update(data).digest('hex') };
}

/** Throws unless `result` (an fs.read) is the whole file, untruncated, with its sha256. */
export function checkRead(label, result, file) {
  const s = result.structuredContent ?? {};
  if (s.sha256 !== file.sha256 || s.truncated !== false || s.content?.length !== file.bytes) {
    throw new Error(
      `${label}: expected the whole ${file.bytes}-byte file (sha256 ${file.sha256}), got ${JSON.stringify({ sha256: s.sha256, truncated: s.truncated, length: s.content?.length })}`,
    );
  }
}

/** Throws unless `result` (a shell.exec) exited 0, with `stdout` if given. */
export function checkExit(label, result, stdout) {
  const s = result.structuredContent ?? {};
  if (s.exitCode !== 0 || (stdout !== undefined && s.stdout !== stdout))
    throw new Error(
      `${label}: expected exit code 0${stdout === undefined ? '' : ` and stdout ${JSON.stringify(stdout)}`}, got ${JSON.stringify(s).slice(0, 300)}`,
    );
}
