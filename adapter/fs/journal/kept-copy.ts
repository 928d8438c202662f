/**
 * A file's bytes into the journal, from the very file the journal looked at: opened without
 * following a link and checked (device and inode) against its lstat. A program swapping it for a
 * link to a file outside the roots meanwhile gets a refusal, not the outside file kept (and put
 * back inside the roots by undo); one written to between the look and the end of the copy (its
 * size or times moved) is refused too, its copy possibly torn. Copied through the descriptor's
 * name where the system has one, so a copy-on-write filesystem still clones it.
 */
import fs from 'node:fs';
import type { FsPath } from '../entry-bytes.js';
import { sameObject } from '../opened-folder.js';
import { descriptorPath, HANDLE_PATHS } from '../opened-path.js';
import { READ_FLAGS } from '../read-text.js';
import { copyBytes } from '../tree.js';

export async function copySeen(file: FsPath, seen: fs.Stats, blob: string): Promise<void> {
  const input = await fs.promises.open(file, READ_FLAGS);
  try {
    const stat = await input.stat();
    if (!stat.isFile() || !sameObject(stat, seen)) throw Object.assign(new Error('it was replaced while it was being kept'), { code: 'ESTALE' });
    if (HANDLE_PATHS) await fs.promises.copyFile(descriptorPath(input.fd), blob, fs.constants.COPYFILE_FICLONE);
    else {
      const output = await fs.promises.open(blob, 'wx', 0o600);
      try {
        await copyBytes(input, output, stat.size);
      } finally {
        await output.close();
      }
    }
    // Written to since it was looked at (a program rewriting it in place): the copy may be torn.
    const after = await input.stat();
    if (after.size !== seen.size || after.mtimeMs !== seen.mtimeMs || after.ctimeMs !== seen.ctimeMs)
      throw Object.assign(new Error('it changed while it was being kept'), { code: 'ESTALE' });
  } finally {
    await input.close();
  }
}
