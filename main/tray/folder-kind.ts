/** What is at a shared folder's path, so the Files page can warn before the tools refuse it. */
import fs from 'node:fs';
import path from 'node:path';
import type { FolderKind } from './bridge-api.js';

export function folderKind(target: string): FolderKind {
  if (!path.isAbsolute(target)) return 'missing';
  try {
    return fs.statSync(target).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}
