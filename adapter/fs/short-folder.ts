/**
 * A folder named by a path that stays short however deep the folder is. A walk names each
 * entry by its whole path, and past PATH_MAX (4096 bytes on Linux) every call on it fails with
 * ENAMETOOLONG: a tree that deep could be deleted through opened folders (tree.ts), but not
 * kept for undo. Past LONG bytes, the folder is opened without following a link and named
 * through its descriptor (/proc/self/fd/N), so the walk below it starts short again. Elsewhere
 * (no /proc) the path is used as it is.
 */
import fs from 'node:fs';
import { DIRECTORY_FLAGS } from './dir-handle.js';
import type { FsPath } from './entry-bytes.js';
import { descriptorPath, HANDLE_PATHS } from './opened-path.js';

/** Room left under it for a name (255 bytes) and the next folder's, within PATH_MAX. */
const LONG = 2048;

export async function withShortFolder<T>(dir: FsPath, use: (short: FsPath) => Promise<T>): Promise<T> {
  if (!HANDLE_PATHS || Buffer.byteLength(dir) < LONG) return use(dir);
  const handle = await fs.promises.open(dir, DIRECTORY_FLAGS);
  try {
    return await use(descriptorPath(handle.fd));
  } finally {
    await handle.close();
  }
}
