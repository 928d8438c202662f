/**
 * Whether a path is already as its pre-image says: an undo that stopped part way (killed, the
 * machine off) had put it back, or someone else did. Undo then has nothing to do there and says
 * so, instead of reporting a conflict the owner cannot resolve; and a later apply finishes what
 * the stopped one began. Nothing is lost by counting it done: what is there is, byte for byte,
 * what undo would have put there.
 *
 * Absence is compared with absence; a link by its target; a file by its permission bits, size
 * and bytes against the copy kept (a kept hard link only while still as sealed). A folder is not
 * compared (everything it held would have to be), so one stays a conflict.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hashEntry } from '../write-text.js';
import type { Image } from './images.js';

export async function asBefore(target: string, pre: Image, blobs: string, sealed: () => Promise<boolean>): Promise<boolean> {
  const stat = await fs.promises.lstat(target).catch(() => null);
  if (pre.type === 'absent') return stat === null;
  if (!stat) return false;
  if (pre.type === 'symlink') {
    if (!stat.isSymbolicLink()) return false;
    const now = await fs.promises.readlink(target, { encoding: 'buffer' });
    return pre.raw !== undefined ? now.toString('base64') === pre.raw : now.toString('utf8') === pre.target;
  }
  if (pre.type !== 'file' || !pre.blob || !stat.isFile()) return false;
  if ((stat.mode & 0o7777) !== pre.mode || stat.size !== pre.size) return false;
  if (pre.linked && !(await sealed())) return false;
  const [now, kept] = await Promise.all([hashEntry(target), hashEntry(path.join(blobs, pre.blob))]).catch(() => [null, undefined]);
  return now === kept;
}
