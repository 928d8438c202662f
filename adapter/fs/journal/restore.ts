/**
 * Putting one path back as its pre-image says, through the GuardedPath the owner's policy gave
 * for it: the parent folder is opened and confirmed, and the path is replaced in it (a file or
 * link through a temporary name and a rename, so it is never half written). Right before it
 * removes or replaces what is there, it looks again: anything changed since undo judged it (the
 * owner saved meanwhile) is a conflict, left as it is; a folder is removed only when what it
 * holds was checked.
 *
 * A file or folder it makes is the undoing user's: run as root, undo gives it back to its recorded
 * owner; otherwise a setuid or setgid bit is left off one that belonged to someone else (or to an
 * owner not recorded), so undo never makes another user's program run with the undoing user's
 * rights, and says so.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { GuardedPath } from '../../contract/files.js';
import { inParent } from '../in-parent.js';
import { childPath, type FsPath } from '../entry-bytes.js';
import { nameOf } from './entry-names.js';
import { byReason, contentPrint, sameStamp, shallowStamp, type Image, type Stamp } from './images.js';

const op = 'undo';
/** Whether undo may give a file to any owner (asked once: getuid is a system call). */
const MAY_CHOWN = process.getuid?.() === 0;
const SET_ID = 0o6000;

/** What undo judged to be at a path: its stamp then and, for a folder it takes away, what the folder holds once undo's own removals in it are done. */
export interface Judged {
  stamp: Stamp;
  content?: string | null;
}

/** A path found changed at undo's last look before touching it. */
export class UndoConflict extends Error {}

/**
 * Replaces whatever is at `guard.path` with `image` (absent: removes it), if it is still as
 * `judged`. `blobs` is the folder the group's kept bytes are in.
 */
export async function restorePath(guard: GuardedPath, image: Image, blobs: string, judged: Judged): Promise<string[]> {
  const notes: string[] = [];
  const left: Array<[string, string]> = [];
  await put(guard, image, blobs, judged, { notes, left });
  return [...notes, ...byReason(left).map((line) => `not put back: ${line}`)];
}

/** What building a folder could not do as recorded: `notes` as they are, and what it left out, by path inside and why. */
interface Said {
  notes: string[];
  left: Array<[string, string]>;
}

async function put(guard: GuardedPath, image: Image, blobs: string, judged: Judged, said: Said): Promise<void> {
  await inParent(guard, op, async (dir, name) => {
    const target = dir.entry(name);
    const current = await fs.promises.lstat(target).catch(() => null);
    if (image.type === 'absent') {
      await unchanged(target, judged, true);
      if (current) await fs.promises.rm(target, { recursive: true, force: true });
      return;
    }
    if (image.type === 'directory') {
      const keep = current?.isDirectory() && !image.entries;
      await unchanged(target, judged, !keep);
      if (keep) {
        await fs.promises.chmod(target, image.mode);
        return;
      }
      if (current) await fs.promises.rm(target, { recursive: true, force: true });
      await build(target, image, blobs, said, '');
      return;
    }
    // A file or a link replaces what is there in one rename; a folder in its place goes first. The
    // temporary name is short whatever the name is (a name near the filesystem's limit has no room for more).
    const temporary = dir.entry(`.undo-${randomBytes(8).toString('hex')}`);
    await build(temporary, image, blobs, said, '');
    try {
      await unchanged(target, judged, true);
      if (current?.isDirectory()) await fs.promises.rm(target, { recursive: true, force: true });
      await fs.promises.rename(temporary, target);
    } catch (error) {
      await fs.promises.rm(temporary, { recursive: true, force: true });
      throw error;
    }
  });
}

/** Throws UndoConflict unless `target` is still as judged (`removing`: a folder there goes, so what it holds must match too). */
async function unchanged(target: string, judged: Judged, removing: boolean): Promise<void> {
  const now = shallowStamp(target);
  if (!sameStamp(now, judged.stamp)) throw new UndoConflict('it was changed while undo ran, so it is left as it is');
  if (now.type !== 'directory' || !removing) return;
  if (judged.content === undefined || judged.content === null)
    throw new UndoConflict('a folder is there now, and what it holds could not be checked, so it is left as it is');
  if ((await contentPrint(target)) !== judged.content) throw new UndoConflict('what the folder holds changed while undo ran, so it is left as it is');
}

/**
 * Creates `image` at a path where nothing is; what it could not make as it was goes to `said`
 * (`inner`: the path inside the one restored). Inside a folder, what was not kept (a fifo, a file
 * too large for the bound) is left out and said, and the rest put back.
 */
async function build(target: FsPath, image: Image, blobs: string, said: Said, inner: string): Promise<void> {
  const left = !inner ? null : (why: string) => said.left.push([inner.replace(/\/$/, ''), why]);
  switch (image.type) {
    case 'file': {
      if (!image.blob) {
        if (left) return void left(image.why ?? 'its content was not kept');
        throw new Error(image.why ?? 'its content was not kept');
      }
      await fs.promises.copyFile(path.join(blobs, image.blob), target, fs.constants.COPYFILE_EXCL);
      await fs.promises.chmod(target, await owned(target, image, said.notes, inner));
      const when = image.mtimeMs / 1000;
      await fs.promises.utimes(target, when, when);
      return;
    }
    case 'symlink':
      await fs.promises.symlink(image.raw !== undefined ? Buffer.from(image.raw, 'base64') : image.target, target);
      return;
    case 'directory':
      await fs.promises.mkdir(target, { mode: 0o700 });
      for (const entry of image.entries ?? []) await build(childPath(target, nameOf(entry)), entry.image, blobs, said, `${inner}${entry.name}/`);
      await fs.promises.chmod(target, await owned(target, image, said.notes, inner));
      return;
    default: {
      const why = (image.type === 'other' && image.why) || 'it was not a file, link or folder';
      if (left) return void left(why);
      throw new Error(why);
    }
  }
}

/** Gives what undo just made back to its recorded owner where it may; the mode to set (without setuid and setgid when the owner differs). */
async function owned(target: FsPath, image: Extract<Image, { type: 'file' | 'directory' }>, notes: string[], inner: string): Promise<number> {
  const made = await fs.promises.lstat(target);
  const { uid, gid } = image;
  if (uid !== undefined && gid !== undefined && made.uid === uid && made.gid === gid) return image.mode;
  if (MAY_CHOWN && uid !== undefined && gid !== undefined) {
    // Before the chmod: a chown clears setuid and setgid.
    await fs.promises.lchown(target, uid, gid);
    return image.mode;
  }
  if ((image.mode & SET_ID) === 0) return image.mode;
  const owner = uid === undefined ? 'an owner the journal did not record' : `uid ${uid} (group ${gid})`;
  const where = inner ? `${inner.replace(/\/$/, '')}: ` : '';
  notes.push(`${where}its setuid and setgid bits were left off: it belonged to ${owner}, and undo, run by uid ${made.uid}, cannot give it back`);
  return image.mode & ~SET_ID;
}
