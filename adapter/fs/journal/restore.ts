/**
 * Putting one path back as its pre-image says, through the GuardedPath the owner's policy gave
 * for it: the parent folder is opened and confirmed, and the path is replaced in it (a file or
 * link through a temporary name and a rename, so it is never half written). Right before it
 * removes or replaces what is there, it looks again: anything changed since undo judged it (the
 * owner saved meanwhile) is a conflict, left as it is; a folder is removed only when what it
 * holds was checked.
 *
 * Everything it makes is made and finished through what it opened, never by a path looked up again:
 * a file is created exclusively without following a link and written, owned, chmod'ed and dated
 * through its descriptor; a folder is made, opened without following a link, and filled through
 * that descriptor (dir-handle.ts); a file or link goes to its place by renaming a temporary that
 * must still be the one undo made. So a program swapping a folder being rebuilt, or the temporary,
 * for a symlink (the model's own command, still running) makes undo fail there, not write or chmod
 * through the link.
 *
 * A file, folder or link it makes is the undoing user's: run as root, undo gives it back to its
 * recorded owner (a folder made again, to the owner of the folder it is in); otherwise a setuid
 * or setgid bit is left off one that belonged to someone else (or to an owner not recorded), so
 * undo never makes another user's program run with the undoing user's rights, and says so.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { GuardedPath } from '../../contract/files.js';
import { NOT_PUT_BACK } from '../../contract/journal.js';
import type { DirHandle } from '../dir-handle.js';
import { inParent } from '../in-parent.js';
import { sameObject, type Seen } from '../opened-folder.js';
import type { EntryName } from '../entry-bytes.js';
import { READ_FLAGS } from '../read-text.js';
import { copyBytes, removeIfEmpty, removeTreeEntry, removeWhole } from '../tree.js';
import { nameOf } from './entry-names.js';
import { byReason, contentPrint, sameStamp, shallowStamp, type Image, type Stamp } from './images.js';

const op = 'undo';
/** Whether undo may give a file to any owner (asked once: getuid is a system call). */
const MAY_CHOWN = process.getuid?.() === 0;
const SET_ID = 0o6000;
const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fs.constants;

/** What undo made, to know it again: a name can be swapped for something else meanwhile. */
type Made = Seen;
/** A descriptor of what undo made (a FileHandle, a DirHandle): its own stat, owner and mode, never by path. */
type Opened = { stat(): Promise<fs.Stats>; chown(uid: number, gid: number): Promise<void> };

/** What undo judged to be at a path: its stamp then and, for a folder it takes away, what the folder holds once undo's own removals in it are done. */
export interface Judged {
  stamp: Stamp;
  content?: string | null;
  /** A folder to take away only if it is empty (nothing inside is taken with it). */
  emptyOnly?: boolean;
}

/** A path found changed at undo's last look before touching it. */
export class UndoConflict extends Error {}

/** A folder to take away only if empty that is not. */
export class NotEmpty extends Error {}

/**
 * Replaces whatever is at `guard.path` with `image` (absent: removes it), if it is still as
 * `judged`. `blobs` is the folder the group's kept bytes are in.
 */
export async function restorePath(guard: GuardedPath, image: Image, blobs: string, judged: Judged): Promise<string[]> {
  const notes: string[] = [];
  const left: Array<[string, string]> = [];
  await put(guard, image, blobs, judged, { notes, left });
  return [...notes, ...byReason(left).map((line) => `${NOT_PUT_BACK}${line}`)];
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
      if (current && judged.emptyOnly && current.isDirectory()) {
        if (!(await removeIfEmpty(dir, name))) throw new NotEmpty('it is not empty');
      } else if (current) await removeWhole(dir, name);
      return;
    }
    if (image.type === 'directory' && current?.isDirectory() && !image.entries) {
      // A folder that stays: only its mode goes back, on the folder undo judged.
      await unchanged(target, judged, false);
      const folder = await dir.child(name).catch(() => null);
      try {
        if (!folder || !isMade(await folder.stat(), current)) throw new UndoConflict(REPLACED);
        await folder.chmod(image.mode);
      } finally {
        await folder?.close();
      }
      return;
    }
    // Made whole under a temporary name first, so nothing half made ever shows at the path: a file
    // or a link then replaces what is there in one rename; a folder, or what takes a folder's place,
    // once what is there went. The temporary name is short whatever the name is (a name near the
    // filesystem's limit has no room for more).
    const temporary = `.undo-${randomBytes(8).toString('hex')}`;
    let made: Made | null;
    // What is there goes aside first, and is removed once what undo made is in its place: should
    // removing it fail (an immutable file, another user's file in a sticky folder), what is put
    // back is there all the same, and what was there is left beside it, and said.
    const aside = current && (current.isDirectory() || image.type === 'directory') ? `.undo-old-${randomBytes(8).toString('hex')}` : null;
    let movedAside = false;
    try {
      made = await build(dir, temporary, image, blobs, said, '');
      await unchanged(target, judged, true);
      if (aside) movedAside = (await fs.promises.rename(target, dir.entry(aside)), true);
      if (!isMade(await fs.promises.lstat(dir.entry(temporary)), made)) throw new UndoConflict(REPLACED);
      await fs.promises.rename(dir.entry(temporary), target);
    } catch (error) {
      // What was there goes back where it was; should something have taken its name meanwhile,
      // nothing is removed, and both are named.
      const back =
        !movedAside ||
        (await fs.promises.rename(dir.entry(aside!), target).then(
          () => true,
          () => false,
        ));
      if (!back) throw new UndoConflict(`something was put at its name while undo ran: what was there is left as ${aside}, and what undo made as ${temporary}`);
      // Said when it cannot go: it holds a copy of what undo was putting back.
      if (
        !(await removeTreeEntry(dir, temporary, true).then(
          () => true,
          () => false,
        ))
      )
        Object.assign(error as object, { leftAs: temporary });
      throw error;
    }
    if (aside)
      await removeWhole(dir, aside).catch((error: NodeJS.ErrnoException) =>
        said.notes.push(`what was there is left beside it as ${aside}: it could not be removed (${error.code ?? error.message})`),
      );
    // The temporary was swapped between the look and the rename: what undo just put at the path is
    // not what it made (a link, say), so it goes again; a folder there is left.
    const now = await fs.promises.lstat(target).catch(() => null);
    if (!isMade(now, made)) {
      if (now && !now.isDirectory()) await fs.promises.unlink(target).catch(() => undefined);
      throw new UndoConflict('what undo made to put it back was swapped for something else at the last moment (removed again), so it is not put back');
    }
  });
}

const REPLACED = 'it was replaced while undo put it back, so it is left as it is now';

function isMade(stat: fs.Stats | null, made: Made | null): boolean {
  return stat !== null && made !== null && sameObject(stat, made);
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
 * Creates `image` as `name` in `dir`, where nothing is, and answers what it made (null: nothing);
 * what it could not make as it was goes to `said` (`inner`: the path inside the one restored).
 * Inside a folder, what was not kept (a fifo, a file too large for the bound) is left out and
 * said, and the rest put back.
 */
async function build(dir: DirHandle, name: EntryName, image: Image, blobs: string, said: Said, inner: string): Promise<Made | null> {
  const left = !inner ? null : (why: string) => void said.left.push([inner.replace(/\/$/, ''), why]);
  switch (image.type) {
    case 'file': {
      if (!image.blob) {
        if (left) return (left(image.why ?? 'its content was not kept'), null);
        throw new Error(image.why ?? 'its content was not kept');
      }
      const file = await fs.promises.open(dir.entry(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      try {
        await copyInto(file, path.join(blobs, image.blob));
        await file.chmod(await owned(file, image, said.notes, inner));
        const when = image.mtimeMs / 1000;
        await file.utimes(when, when);
        return await file.stat();
      } finally {
        await file.close();
      }
    }
    case 'symlink': {
      await fs.promises.symlink(image.raw !== undefined ? Buffer.from(image.raw, 'base64') : image.target, dir.entry(name));
      const made = await fs.promises.lstat(dir.entry(name));
      // Run as root, back to its recorded owner (lchown: never what it names); otherwise it is the undoing user's.
      if (MAY_CHOWN && image.uid !== undefined && image.gid !== undefined && (made.uid !== image.uid || made.gid !== image.gid)) {
        await fs.promises.lchown(dir.entry(name), image.uid, image.gid);
        return fs.promises.lstat(dir.entry(name));
      }
      return made;
    }
    case 'directory': {
      await fs.promises.mkdir(dir.entry(name), { mode: 0o700 });
      const folder = await dir.child(name);
      try {
        // A folder whose entries were not kept (too many, too deep) is made, and said to be made without them.
        if (image.why !== undefined) (left ?? ((why: string) => said.notes.push(`made without what it held: ${why}`)))(image.why);
        for (const entry of image.entries ?? []) await build(folder, nameOf(entry), entry.image, blobs, said, `${inner}${entry.name}/`);
        await folder.chmod(await owned(folder, image, said.notes, inner));
        // Last: making what it holds moved its time.
        if (image.mtimeMs !== undefined) await folder.utimes(image.mtimeMs / 1000, image.mtimeMs / 1000);
        return await folder.stat();
      } finally {
        await folder.close();
      }
    }
    default: {
      const why = (image.type === 'other' && image.why) || 'it was not a file, link or folder';
      if (left) return (left(why), null);
      throw new Error(why);
    }
  }
}

/** A kept blob's bytes into the file undo opened. */
async function copyInto(file: fs.promises.FileHandle, blob: string): Promise<void> {
  const input = await fs.promises.open(blob, READ_FLAGS);
  try {
    await copyBytes(input, file);
  } finally {
    await input.close();
  }
}

/** Gives what undo just made back to its recorded owner where it may; the mode to set (without setuid and setgid when the owner differs). */
async function owned(opened: Opened, image: Extract<Image, { type: 'file' | 'directory' }>, notes: string[], inner: string): Promise<number> {
  const made = await opened.stat();
  const { uid, gid } = image;
  if (uid !== undefined && gid !== undefined && made.uid === uid && made.gid === gid) return image.mode;
  if (MAY_CHOWN && uid !== undefined && gid !== undefined) {
    // Before the chmod: a chown clears setuid and setgid.
    await opened.chown(uid, gid);
    return image.mode;
  }
  if ((image.mode & SET_ID) === 0) return image.mode;
  const owner = uid === undefined ? 'an owner the journal did not record' : `uid ${uid} (group ${gid})`;
  const where = inner ? `${inner.replace(/\/$/, '')}: ` : '';
  notes.push(`${where}its setuid and setgid bits were left off: it belonged to ${owner}, and undo, run by uid ${made.uid}, cannot give it back`);
  return image.mode & ~SET_ID;
}
