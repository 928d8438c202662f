/**
 * A folder a walk goes into, named through its descriptor where the system has such names
 * (Linux: /proc/self/fd/N): opened without following a link and checked to be the folder the walk
 * saw (device and inode). So a folder swapped for a link meanwhile (a program racing the walk) is
 * not followed out of the tree, and the names below it stay short however deep it is: past
 * PATH_MAX (4096 bytes on Linux) a whole path names nothing (ENAMETOOLONG). Elsewhere (no /proc)
 * the path is used as it is.
 */
import fs from 'node:fs';
import { DIRECTORY_FLAGS } from './dir-handle.js';
import type { FsPath } from './entry-bytes.js';
import { descriptorPath, HANDLE_PATHS } from './opened-path.js';

export type Seen = Pick<fs.Stats, 'dev' | 'ino'>;

export async function withOpenedFolder<T>(dir: FsPath, seen: Seen, use: (named: FsPath) => Promise<T>): Promise<T> {
  if (!HANDLE_PATHS) return use(dir);
  const handle = await fs.promises.open(dir, DIRECTORY_FLAGS);
  try {
    if (!sameObject(await handle.stat(), seen)) throw Object.assign(new Error('it was replaced while it was being read'), { code: 'ESTALE' });
    return await use(descriptorPath(handle.fd));
  } finally {
    await handle.close();
  }
}

export function sameObject(a: Seen, b: Seen): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
