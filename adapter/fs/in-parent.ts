import nodePath from 'node:path';
import { withDirectory, type DirHandle } from './dir-handle.js';
import type { GuardedPath } from '../contract/files.js';

/** Opens the parent of an entry and confirms the entry's own real place (the parent's real path plus its name). */
export function inParent<T>(entry: GuardedPath, operation: string, use: (dir: DirHandle, name: string) => Promise<T>): Promise<T> {
  const name = nodePath.basename(entry.path);
  return withDirectory(
    nodePath.dirname(entry.path),
    (real) => entry.confirm(nodePath.join(real, name)),
    operation,
    (dir) => use(dir, name),
  );
}
