import type fs from 'node:fs';
import type { EntryType } from '../contract/files.js';

export function entryType(stat: fs.Stats | fs.Dirent): EntryType {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFile()) return 'file';
  return 'other';
}
