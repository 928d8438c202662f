import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { adapterError } from '../errors.js';
import { fsError } from './fs-errors.js';
import type { TextFileRead } from './file-ops.js';

// No-follow for the last component; non-blocking so a FIFO cannot hang the thread pool (no effect on files).
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK = 256 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads at most `maxBytes` of a UTF-8 text file while hashing the whole file, so a caller can
 * later overwrite with `expectedSha256` even when it only saw the beginning.
 */
export async function readTextFile(path: string, maxBytes: number): Promise<TextFileRead> {
  const op = 'fs.read';
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path, OPEN_FLAGS);
  } catch (error) {
    throw fsError(error, op, path);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw adapterError('INVALID_INPUT', op, `${path} is not a regular file`);
    const hash = createHash('sha256');
    const head = Buffer.allocUnsafe(Math.min(maxBytes, stat.size));
    let headLength = 0;
    let total = 0;
    // One byte more than the file: a short read then means end of file, saving a read call.
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, stat.size + 1));
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      if (headLength < head.length) headLength += chunk.copy(head, headLength, 0, Math.min(bytesRead, head.length - headLength));
      total += bytesRead;
      if (bytesRead < buffer.length) break;
    }
    const shown = head.subarray(0, headLength);
    const truncated = total > headLength;
    const content = decodeText(shown, truncated, path);
    return { content, bytes: Buffer.byteLength(content), totalBytes: total, truncated, sha256: hash.digest('hex') };
  } catch (error) {
    throw fsError(error, op, path);
  } finally {
    await handle.close();
  }
}

/** Decodes UTF-8; a cut in the middle of a character at the end is dropped, anything else binary is refused. */
function decodeText(bytes: Buffer, truncated: boolean, path: string): string {
  if (bytes.includes(0)) throw binary(path);
  let end = bytes.length;
  if (truncated) end = completeCharacterEnd(bytes);
  try {
    return utf8.decode(bytes.subarray(0, end));
  } catch {
    throw binary(path);
  }
}

function completeCharacterEnd(bytes: Buffer): number {
  // Walk back over at most 3 continuation bytes to the start of the last character.
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i]! & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i >= need ? bytes.length : i;
}

function binary(path: string): Error {
  return adapterError('INVALID_INPUT', 'fs.read', `${path} is not a UTF-8 text file (it looks binary); fs.read returns text only`);
}
