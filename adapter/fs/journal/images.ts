/**
 * What a path is, for the change journal: a pre-image (everything needed to put it back: a
 * file's bytes, mode and modification time, a link's target, a folder's mode and, taken whole,
 * what it holds) and a stamp (enough to tell whether anyone changed it since: size, mode,
 * times, inode; for a folder undo would remove, a fingerprint of everything in it).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CaptureDepth } from '../../contract/journal.js';
import { asEntryName, childPath, type EntryName, type FsPath } from '../entry-bytes.js';
import { withOpenedFolder } from '../opened-folder.js';
import { namesIn, recordedName, type RecordedName } from './entry-names.js';

const SLASH = Buffer.from('/');

export type Image =
  | { type: 'absent' }
  /** `linked`: the blob is the replaced file's own inode (linked-image.ts), checked against its seal before use. */
  /** `uid`, `gid`: its owner (absent in journals written before they were recorded). */
  | { type: 'file'; mode: number; mtimeMs: number; size: number; blob: string | null; why?: string; linked?: true; uid?: number; gid?: number }
  /** `raw`: the target's bytes (base64) when it is not UTF-8. */
  | { type: 'symlink'; target: string; raw?: string; uid?: number; gid?: number }
  /** `entries` when taken whole; `why` when it should have been and could not (too many entries). */
  /** `mtimeMs` when taken whole (absent in journals written before it was recorded). */
  | { type: 'directory'; mode: number; entries?: Array<RecordedName & { image: Image }>; why?: string; uid?: number; gid?: number; mtimeMs?: number }
  /** Not a file, link or folder (a socket), or a pre-image that could not be taken: `why`. */
  | { type: 'other'; why?: string };

export type Stamp =
  | { type: 'absent' }
  | { type: 'file' | 'symlink' | 'other'; mode: number; size: number; mtimeMs: number; ctimeMs: number; ino: number }
  | { type: 'directory'; mode: number; ino: number; tree?: string };

/**
 * Keeps the bytes of the file `seen` (its lstat) in the journal: the blob's name, or null and why
 * not. `at`: the path as the owner knows it, where known (a folder's entries are read through the
 * opened folder).
 */
export type KeepBytes = (file: FsPath, seen: fs.Stats, at?: string) => Promise<{ blob: string } | { blob: null; why: string }>;

/** Entries a folder's fingerprint or whole pre-image covers before it gives up. */
const MAX_TREE_ENTRIES = 20_000;
/** Folders within folders a whole pre-image goes down (deeper, its record could not be written: JSON nests once per level). */
export const MAX_TREE_DEPTH = 256;

/** `known`: the path's lstat when the caller just took it (null: it is absent); `level`: how deep in the folder taken whole. */
export async function capture(
  target: FsPath,
  depth: CaptureDepth,
  keep: KeepBytes,
  budget = { entries: MAX_TREE_ENTRIES },
  known?: fs.Stats | null,
  level = 0,
  at?: string,
): Promise<Image> {
  const stat = known !== undefined ? known : await fs.promises.lstat(target).catch(missing);
  if (!stat) return { type: 'absent' };
  if (stat.isSymbolicLink()) {
    const { name, raw } = recordedName(asEntryName(await fs.promises.readlink(target, { encoding: 'buffer' })));
    return { type: 'symlink', target: name, ...(raw !== undefined ? { raw } : {}), uid: stat.uid, gid: stat.gid };
  }
  if (stat.isFile()) {
    // The path itself was judged by the policy before it was asked for; only what a folder holds is news to it.
    const kept = await keep(target, stat, level > 0 ? at : undefined);
    return { type: 'file', mode: stat.mode & 0o7777, mtimeMs: stat.mtimeMs, size: stat.size, uid: stat.uid, gid: stat.gid, ...kept };
  }
  if (!stat.isDirectory()) return { type: 'other' };
  const folder: Image = { type: 'directory', mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid };
  if (depth === 'shallow') return folder;
  if (level >= MAX_TREE_DEPTH) return { ...folder, why: `it holds folders more than ${MAX_TREE_DEPTH} deep` };
  // Walked through the folder opened and checked: one swapped for a link meanwhile is not followed out of the tree.
  return withOpenedFolder(target, stat, async (dir) => {
    const names = await namesIn(dir);
    budget.entries -= names.length;
    if (budget.entries < 0) return { ...folder, why: `it holds more than ${MAX_TREE_ENTRIES} entries` };
    const entries: Array<RecordedName & { image: Image }> = [];
    // One entry that cannot be kept (swapped meanwhile, unreadable) is left out and said, not the whole folder.
    const inner = (name: EntryName) =>
      capture(childPath(dir, name), 'tree', keep, budget, undefined, level + 1, at === undefined ? undefined : path.join(at, String(name))).catch(
        (error: NodeJS.ErrnoException): Image => ({
          type: 'other',
          why: error.code === 'ESTALE' ? error.message : `it could not be read (${error.code ?? error.message})`,
        }),
      );
    for (const name of names) entries.push({ ...recordedName(name), image: await inner(name) });
    return { ...folder, mtimeMs: stat.mtimeMs, entries };
  });
}

/** `known`: the path's lstat when the caller just took it (null: it is absent). */
export async function stamp(target: string, withTree: boolean, known?: fs.Stats | null): Promise<Stamp> {
  const shallow = shallowStamp(target, known);
  return withTree && shallow.type === 'directory' ? { ...shallow, tree: await fingerprint(target) } : shallow;
}

/**
 * A stamp without a folder's fingerprint, synchronously: one lstat(2) costs less than a
 * thread-pool hop or even a promise's (a stamp is taken on every change).
 */
export function shallowStamp(target: string, known?: fs.Stats | null): Stamp {
  let stat: fs.Stats | null;
  if (known !== undefined) stat = known;
  else
    try {
      stat = fs.lstatSync(target, { throwIfNoEntry: false }) ?? null;
    } catch (error) {
      stat = missing(error as NodeJS.ErrnoException);
    }
  if (!stat) return { type: 'absent' };
  const mode = stat.mode & 0o7777;
  if (stat.isDirectory()) return { type: 'directory', mode, ino: stat.ino };
  const type = stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'other';
  return { type, mode, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino };
}

export function sameStamp(a: Stamp, b: Stamp): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'absent' || b.type === 'absent') return true;
  if (a.type === 'directory' || b.type === 'directory') {
    const x = a as Extract<Stamp, { type: 'directory' }>;
    const y = b as Extract<Stamp, { type: 'directory' }>;
    return x.mode === y.mode && x.ino === y.ino && (x.tree === undefined || y.tree === undefined || x.tree === y.tree);
  }
  return a.mode === b.mode && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** Everything under a folder, by relative path, type, size, mode and times; changes whenever anything in it does. */
async function fingerprint(dir: string): Promise<string> {
  return (await walkPrint(dir, true, new Set()))?.hash ?? unchecked();
}

/** Too large (or unreadable) to tell: it never matches, so undo leaves it alone and says so. */
function unchecked(): string {
  return `unchecked:${Math.random()}`;
}

/**
 * A folder about to be taken whole, from one walk: its stamp with its fingerprint, and the bytes
 * of the files in it (what taking it would keep; null past MAX_TREE_ENTRIES or unreadable).
 */
export async function wholeFolder(dir: string, known: fs.Stats): Promise<{ stamp: Stamp; bytes: number | null }> {
  const shallow = shallowStamp(dir, known);
  const print = await walkPrint(dir, true, new Set());
  return { stamp: shallow.type === 'directory' ? { ...shallow, tree: print?.hash ?? unchecked() } : shallow, bytes: print?.bytes ?? null };
}

/**
 * What a folder holds, for undo's last look before it removes the folder: like its fingerprint,
 * but a folder inside counts by name, mode and inode only (undo's own removals inside change its
 * times), and the entries at `skip` (relative paths undo itself removes first) are left out.
 * Null when it is too large or unreadable to tell.
 */
export async function contentPrint(dir: string, skip: ReadonlySet<string> = new Set()): Promise<string | null> {
  return (await walkPrint(dir, false, skip))?.hash ?? null;
}

/** The hash of what a folder holds, and the bytes of its files; null when it is too large or unreadable to tell. */
async function walkPrint(dir: string, folderTimes: boolean, skip: ReadonlySet<string>): Promise<{ hash: string; bytes: number } | null> {
  const hash = createHash('sha256');
  let seen = 0;
  let bytes = 0;
  // The prefix in bytes: a name that is not UTF-8 counts as itself (hashed as a string, two such names would be one).
  const walk = async (folder: FsPath, prefix: Buffer): Promise<void> => {
    for (const name of await namesIn(folder)) {
      if (++seen > MAX_TREE_ENTRIES) throw new Error(`it holds more than ${MAX_TREE_ENTRIES} entries`);
      const relative = Buffer.concat([prefix, Buffer.from(name)]);
      if (skip.has(relative.toString('utf8'))) continue;
      const full = childPath(folder, name);
      const s = await fs.promises.lstat(full);
      const times = folderTimes || !s.isDirectory() ? `\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}` : '';
      hash.update(relative);
      hash.update(`\0${s.mode}${times}\0${s.ino}\n`);
      if (s.isFile()) bytes += s.size;
      if (s.isDirectory()) await withOpenedFolder(full, s, (inner) => walk(inner, Buffer.concat([relative, SLASH])));
    }
  };
  try {
    await walk(dir, Buffer.alloc(0));
    return { hash: hash.digest('hex'), bytes };
  } catch {
    return null;
  }
}

/** The folders missing above a path, outermost first. */
export function missingFolders(target: string): string[] {
  const missing: string[] = [];
  for (let dir = path.dirname(target); dir !== path.dirname(dir) && !fs.existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
  return missing;
}

function missing(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
  throw error;
}

/** The kind of thing an image was, in the words the journal shows. */
export function imageKind(image: Image): 'nothing' | 'file' | 'symlink' | 'directory' {
  return image.type === 'absent' || image.type === 'other' ? 'nothing' : image.type;
}

/**
 * Whether what undo needs to put it back was kept: a file's bytes, a folder's list of what it
 * held. A folder taken whole is put back with what was kept inside it; `missing` says what was
 * not (a fifo, a file too large for the bound), by its path inside the folder.
 */
export function fullyKept(image: Image): { kept: boolean; why?: string; missing?: string[] } {
  const why = notKept(image);
  if (why !== null) return { kept: false, why };
  const missing: Array<[string, string]> = [];
  if (image.type === 'directory') collectMissing(image, '', missing);
  return missing.length ? { kept: true, missing: byReason(missing) } : { kept: true };
}

function collectMissing(image: Image, inner: string, missing: Array<[string, string]>): void {
  if (image.type !== 'directory' || !image.entries) return;
  // Each entry looked at once (fullyKept of a folder would walk it again: exponential in the depth).
  for (const entry of image.entries) {
    const name = `${inner}${entry.name}`;
    const why = notKept(entry.image);
    if (why !== null) missing.push([name, why]);
    else collectMissing(entry.image, `${name}/`, missing);
  }
}

/** Why this one image (not what it holds) was not kept, or null. */
function notKept(image: Image): string | null {
  if (image.type === 'file') return image.blob ? null : (image.why ?? 'not kept');
  if (image.type === 'other') return image.why ?? 'it was not a file, link or folder';
  if (image.type === 'directory' && image.why) return image.why;
  return null;
}

/** Names and why, one line per reason ("a, b, c and 7 more: why"): a folder of a thousand photos not kept is one line. */
export function byReason(items: ReadonlyArray<readonly [string, string]>, shown = 5): string[] {
  const reasons = new Map<string, string[]>();
  for (const [name, why] of items) reasons.set(why, [...(reasons.get(why) ?? []), name]);
  return [...reasons].map(([why, names]) => {
    const more = names.length > shown ? ` and ${names.length - shown} more` : '';
    return `${names.slice(0, shown).join(', ')}${more}: ${why}`;
  });
}

/** The pre-image of a path whose earlier state could not be kept, saying why. */
export function unkept(error: Error): Image {
  return { type: 'other', why: error.message };
}

/** The blobs a pre-image keeps (a folder's, of every file inside it). */
export function blobsOf(image: Image): string[] {
  if (image.type === 'file') return image.blob ? [image.blob] : [];
  return image.type === 'directory' ? (image.entries ?? []).flatMap((entry) => blobsOf(entry.image)) : [];
}

/** The path's lstat, or null where nothing is (or a file is where a folder on the way should be). */
export function lstatOrNull(target: string): fs.Stats | null {
  try {
    return fs.lstatSync(target, { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}
