/**
 * Recursive removal and copy that walk through opened directories (dir-handle.ts): every
 * subdirectory is opened with no-follow from its parent's descriptor, so swapping a directory
 * inside the tree for a symlink mid-walk makes the walk fail there instead of following the
 * link out of the tree (a path-based walk such as fs.rm would delete or copy what it points to).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import nodePath from 'node:path';
import type { DirHandle } from './dir-handle.js';
import { entriesOf, type EntryName } from './entry-bytes.js';
import { removalBlock } from './file-flags.js';
import { sameObject } from './opened-folder.js';
import { READ_FLAGS } from './read-text.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fs.constants;
const COPY_CHUNK = 1024 * 1024;

/**
 * Asks `confirm` about every entry of the tree at `name` (its real path: the opened directory
 * plus the name), before anything is removed: a recursive delete of a folder must not take a
 * secret, a denied file or git's hooks with it when none of them could be deleted one by one.
 */
export async function confirmTree(dir: DirHandle, name: EntryName, confirm: (real: string) => void): Promise<void> {
  // A name that is not UTF-8 is checked as it reads (U+FFFD for the bytes that are not): the policy's names and patterns are text.
  confirm(nodePath.join(dir.real, String(name)));
  const stat = await fs.promises.lstat(dir.entry(name));
  if (!stat.isDirectory()) return;
  const child = await dir.child(name);
  try {
    for (const entry of await entriesOf(child.self)) await confirmTree(child, entry, confirm);
  } finally {
    await child.close();
  }
}

/**
 * Removes `name` in `dir`: a file or link is unlinked, a directory emptied depth-first, then
 * removed. `own`: a tree this process made (undo's temporary), each folder made writable first
 * (through its descriptor), as one it made read-only would otherwise keep what it holds.
 */
export async function removeTreeEntry(dir: DirHandle, name: EntryName, own = false): Promise<void> {
  const stat = await fs.promises.lstat(dir.entry(name));
  if (!stat.isDirectory()) return fs.promises.unlink(dir.entry(name));
  const child = await dir.child(name);
  try {
    if (own) await child.chmod(0o700);
    for (const entry of await entriesOf(child.self)) await removeTreeEntry(child, entry, own);
  } finally {
    await child.close();
  }
  await fs.promises.rmdir(dir.entry(name));
}

/**
 * Removes `name` in `dir` whole or not at all, as far as can be known before: a folder is first
 * checked to be one this user may empty (mayEmpty), then renamed aside (a parent this user may
 * not change refuses there, with nothing taken), then emptied and removed. Should that still fail
 * (a file made immutable meanwhile, or where that cannot be read first), what is left goes back under its name, if that is still free and the
 * folder aside still the one moved there. An emptied folder that stays, by a read-only parent
 * found only at the end, would lose what it held and leave nothing to undo it with. An error
 * with `partly` set came after some of it was removed; any other, before anything was.
 */
export async function removeWhole(dir: DirHandle, name: EntryName): Promise<void> {
  const stat = await fs.promises.lstat(dir.entry(name));
  if (!stat.isDirectory()) return fs.promises.unlink(dir.entry(name));
  await mayEmpty(dir, name);
  const aside = `.removing-${randomBytes(8).toString('hex')}`;
  await fs.promises.rename(dir.entry(name), dir.entry(aside));
  try {
    await removeTreeEntry(dir, aside);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const shown = nodePath.join(dir.real, String(name));
    const left = await fs.promises.lstat(dir.entry(aside)).catch(() => null);
    const free = !(await fs.promises.lstat(dir.entry(name)).catch(() => null));
    const back =
      left && sameObject(left, stat) && free
        ? await fs.promises.rename(dir.entry(aside), dir.entry(name)).then(
            () => '',
            () => null,
          )
        : null;
    const where = back ?? ` (what is left of it is at ${nodePath.join(dir.real, aside)})`;
    throw Object.assign(new Error(`${shown} could not be removed whole (${code ?? (error as Error).message})${where}`), { code, partly: true });
  }
}

/**
 * Removes the folder at `name` if all it holds is folders holding nothing else (rmdir each,
 * deepest first; rmdir itself refuses a folder that gained an entry meanwhile). Answers whether
 * it went: anything else found in it stays, and so does the folder, its empty folders aside.
 */
export async function removeIfEmpty(dir: DirHandle, name: EntryName): Promise<boolean> {
  const child = await dir.child(name);
  let empty = true;
  try {
    for (const entry of await entriesOf(child.self)) {
      const stat = await fs.promises.lstat(child.entry(entry)).catch(() => null);
      if (!stat?.isDirectory() || !(await removeIfEmpty(child, entry))) empty = false;
    }
  } finally {
    await child.close();
  }
  if (!empty) return false;
  return fs.promises.rmdir(dir.entry(name)).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST') return false;
      throw error;
    },
  );
}

/**
 * Throws, saying why, unless `name` in `dir` may be removed whole as far as can be known before
 * anything changes: the folder it is in lets this user remove it (written and searched; sticky:
 * it or the folder is this user's), it is not marked immutable or append-only, and a folder may
 * be emptied (mayEmpty). For a step that must not go ahead if the removal cannot (a move across
 * devices replaces its destination only then).
 */
export async function mayRemove(dir: DirHandle, name: EntryName): Promise<void> {
  const stat = await fs.promises.lstat(dir.entry(name));
  const folder = await dir.stat();
  const refuse = (why: string, code: string) => Object.assign(new Error(`${nodePath.join(dir.real, String(name))} cannot be removed: ${why}`), { code });
  await fs.promises.access(dir.self, fs.constants.W_OK | fs.constants.X_OK).catch((error: NodeJS.ErrnoException) => {
    throw refuse(`this user may not change the folder it is in (${error.code})`, error.code ?? 'EACCES');
  });
  if (stickyBlocks(folder, stat)) throw refuse("it is another user's, in a sticky folder", 'EPERM');
  const folderBlock = removalBlock(dir.real);
  if (folderBlock) throw refuse(`the folder it is in is ${folderBlock}`, 'EPERM');
  if (stat.isDirectory()) await mayEmpty(dir, name);
  else refuseMarked(dir, name);
}

/**
 * Throws, naming the folder, unless every folder of the tree at `name` may have its entries
 * removed by this user: written and searched, and, when it is sticky (as /tmp), holding only
 * entries of this user's, or being this user's; and nothing in it is immutable or append-only
 * (where that can be read: Linux, with the built addon).
 */
async function mayEmpty(dir: DirHandle, name: EntryName): Promise<void> {
  const shown = () => nodePath.join(dir.real, String(name));
  await fs.promises.access(dir.entry(name), fs.constants.W_OK | fs.constants.X_OK).catch((error: NodeJS.ErrnoException) => {
    throw Object.assign(new Error(`${shown()} is a folder whose entries this user may not remove (${error.code})`), { code: error.code });
  });
  refuseMarked(dir, name);
  const child = await dir.child(name);
  try {
    const folder = await child.stat();
    for (const entry of await entriesOf(child.self)) {
      const entryStat = await fs.promises.lstat(child.entry(entry));
      if (stickyBlocks(folder, entryStat))
        throw Object.assign(new Error(`${shown()} is a sticky folder holding ${String(entry)}, another user's, which this user may not remove`), {
          code: 'EPERM',
        });
      if (entryStat.isDirectory()) await mayEmpty(child, entry);
      else refuseMarked(child, entry);
    }
  } finally {
    await child.close();
  }
}

/** Throws, naming it, if the entry is immutable or append-only: not even root removes it (or, a folder, what it holds). */
function refuseMarked(dir: DirHandle, name: EntryName): void {
  const block = removalBlock(dir.entry(name));
  if (block) throw Object.assign(new Error(`${nodePath.join(dir.real, String(name))} is ${block}, so it cannot be removed`), { code: 'EPERM' });
}

/** Whether a sticky folder (as /tmp) keeps this user from removing the entry: only its owner, the folder's or root may. */
function stickyBlocks(folder: fs.Stats, entry: fs.Stats): boolean {
  return (folder.mode & STICKY) !== 0 && UID !== 0 && folder.uid !== UID && entry.uid !== UID;
}

const UID = process.getuid?.() ?? -1;
const STICKY = 0o1000;

/**
 * A regular file's bytes into a new file. Both sides are opened without following a symlink (and
 * the source without blocking), and the source is checked once open: another program swapping it
 * for a symlink or a FIFO after the lstat above gets a refusal, not a copy of what the link names
 * (copyFile opens by name and follows links).
 */
export async function copyFileContent(source: string | Buffer, target: string | Buffer, shown: string): Promise<void> {
  const input = await fs.promises.open(source, READ_FLAGS);
  try {
    const stat = await input.stat();
    if (!stat.isFile()) throw Object.assign(new Error(`${shown} is no longer a regular file`), { code: 'EINVAL' });
    const output = await fs.promises.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    try {
      // The source's permissions without setuid/setgid, whatever the umask (as copyFile kept them).
      await output.chmod(stat.mode & 0o777);
      await copyBytes(input, output, stat.size);
      await output.utimes(stat.atime, stat.mtime);
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}

/** Everything `input` holds from where it stands into `output` (both opened by the caller); `size` only sizes the buffer. */
export async function copyBytes(input: fs.promises.FileHandle, output: fs.promises.FileHandle, size = COPY_CHUNK): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(size, 1)));
  for (;;) {
    const { bytesRead } = await input.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    await output.write(buffer, 0, bytesRead);
  }
}

/** Copies `name` from one opened directory to another (files, directories, symlinks as links), for moves across devices. */
export async function copyEntry(from: DirHandle, name: EntryName, to: DirHandle, newName: EntryName): Promise<void> {
  const source = from.entry(name);
  const shown = nodePath.join(from.real, String(name));
  const stat = await fs.promises.lstat(source);
  if (stat.isSymbolicLink()) return fs.promises.symlink(await fs.promises.readlink(source, { encoding: 'buffer' }), to.entry(newName));
  if (stat.isFile()) return copyFileContent(source, to.entry(newName), shown);
  if (!stat.isDirectory()) throw Object.assign(new Error(`${shown} is not a file, directory or symlink`), { code: 'EINVAL' });
  await fs.promises.mkdir(to.entry(newName), { mode: stat.mode & 0o777 });
  const [sourceDir, targetDir] = [await from.child(name), await to.child(newName)];
  try {
    for (const entry of await entriesOf(sourceDir.self)) await copyEntry(sourceDir, entry, targetDir, entry);
  } finally {
    await Promise.all([sourceDir.close(), targetDir.close()]);
  }
}
