/**
 * Where the audit log lives and how it is read: `audit.jsonl` in the app folder's `audit/`
 * folder, rotated into `audit.1.jsonl` (the newest) to `audit.N.jsonl` (the oldest kept). Read
 * through the owned-state checks: a file another user owns, or that others can read or write,
 * is refused, not trusted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readOwnedFile, secureAppFolder } from '../config/owned-state.js';

export const AUDIT_FOLDER = 'audit';
export const CURRENT_FILE = 'audit.jsonl';
const ROTATED = /^audit\.(\d+)\.jsonl$/;

export function auditDir(appDir: string): string {
  return path.join(appDir, AUDIT_FOLDER);
}

export function rotatedFile(dir: string, n: number): string {
  return path.join(dir, `audit.${n}.jsonl`);
}

/** The log's files, oldest first (the current file last); none when there is no log yet. */
export function auditFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const rotated = names
    .map((name) => ROTATED.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a)
    .map((n) => rotatedFile(dir, n));
  return names.includes(CURRENT_FILE) ? [...rotated, path.join(dir, CURRENT_FILE)] : rotated;
}

export interface StoredLine {
  file: string;
  /** 1-based, in its file. */
  number: number;
  text: string;
}

/** Every line of the log, oldest first. The folder is checked like the app folder (never repaired here). */
export function* readAuditLines(dir: string): Generator<StoredLine> {
  secureAppFolder(dir, { repair: false });
  for (const file of auditFiles(dir)) {
    const text = readOwnedFile(file, 'the audit log', true, 'move it away (the server starts a new one)') ?? '';
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (let i = 0; i < lines.length; i++) yield { file, number: i + 1, text: lines[i]! };
  }
}
