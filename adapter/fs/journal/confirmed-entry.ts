/**
 * A path the journal takes a pre-image of, named through its parent folder, opened and confirmed
 * to be the folder the path names. The tool's own checks and change go through its confirmed
 * folder too; a pre-image taken by the whole path instead follows a folder on the way that a
 * program (the model's own command, still running) swapped for a link, and keeps bytes from
 * outside the roots, which undo would then write inside them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { withDirectory } from '../dir-handle.js';

export async function inConfirmedParent<T>(target: string, use: (entry: string, stat: fs.Stats | null) => Promise<T>): Promise<T> {
  const parent = path.dirname(target);
  const replaced = (now: string) => Object.assign(new Error(`${parent} was replaced while its earlier state was being kept (${now})`), { code: 'ESTALE' });
  const confirm = (real: string) => {
    if (real !== parent) throw replaced(`it leads to ${real} now`);
  };
  return withDirectory(parent, confirm, 'undo', async (dir) => {
    const entry = dir.entry(path.basename(target));
    return use(entry, await fs.promises.lstat(entry).catch(() => null));
  }).catch((error: NodeJS.ErrnoException) => {
    // The folder itself a link now (opened without following it), or no folder at all.
    throw error.code === 'ELOOP' || error.code === 'ENOTDIR' ? replaced('it is no longer a folder') : error;
  });
}
