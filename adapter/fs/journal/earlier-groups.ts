/**
 * Undoing groups newest first, as the owner does: a file a later group changed is put back as
 * the earlier group's model left it, but on a new inode with new times, so the earlier group
 * would see "changed since" and refuse it. Once a file is put back, an earlier group whose last
 * stamp of it is exactly what the later group found (its `was`) gets a stamp of the file as it
 * is now, when its bytes are the ones the later group kept: the earlier group then undoes it as if
 * the later one had never run. The files and links inside a folder the later group put back whole
 * (it had moved or deleted it) are re-stamped the same way, matched by the size, time and mode the
 * later group's capture of the folder gives them. An owner's edit in between breaks the byte check
 * and stays a conflict.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UndoOutcome } from '../../contract/journal.js';
import { hashEntry } from '../write-text.js';
import { sameStamp, shallowStamp, type Image, type Stamp } from './images.js';
import type { FoldedGroup } from './folded-group.js';
import type { JournalFiles } from './journal-files.js';

/** A file or link the undone group put back: its kept image, and whether an earlier group's last stamp is what the later group found. */
type PutBack = readonly [path: string, pre: Image, found: (post: Stamp) => boolean];

export async function restampEarlierGroups(files: JournalFiles, undone: FoldedGroup, outcome: UndoOutcome, at: string): Promise<void> {
  const restored = outcome.restored.flatMap((p): PutBack[] => {
    const info = undone.paths.get(p);
    if (!info) return [];
    if ((info.pre.type === 'file' || info.pre.type === 'symlink') && info.was.type === info.pre.type)
      return [[p, info.pre, (post) => sameStamp(post, info.was)]];
    return info.pre.type === 'directory' ? inside(p, info.pre) : [];
  });
  if (restored.length === 0) return;
  const blobs = files.blobs(undone.meta.id);
  for (const id of await files.ids()) {
    if (id >= undone.meta.id || files.undoBegun(id)) continue;
    const earlier = await files.read(id).catch(() => null);
    if (!earlier) continue;
    for (const [p, pre, found] of restored) {
      const known = earlier.paths.get(p);
      if (!known?.post || !found(known.post) || !(await asKept(p, pre, blobs))) continue;
      files.append(id, [{ k: 'post', t: 'undo', p, s: shallowStamp(p), ...(known.sha ? { c: known.sha } : {}), at }]);
    }
  }
}

/** The files and links a folder's whole pre-image holds (names that are not UTF-8 aside: no group records them as paths). */
function inside(folder: string, image: Image): PutBack[] {
  if (image.type !== 'directory' || !image.entries) return [];
  return image.entries.flatMap((entry): PutBack[] => {
    if (entry.raw !== undefined) return [];
    const p = `${folder}/${entry.name}`;
    const pre = entry.image;
    if (pre.type === 'directory') return inside(p, pre);
    if (pre.type === 'file')
      return [[p, pre, (post) => post.type === 'file' && post.size === pre.size && post.mtimeMs === pre.mtimeMs && post.mode === pre.mode]];
    if (pre.type === 'symlink') return [[p, pre, (post) => post.type === 'symlink']];
    return [];
  });
}

/** Whether what is at `target` now is the pre-image the undone group kept (the bytes of a file, a link's target). */
async function asKept(target: string, pre: Image, blobs: string): Promise<boolean> {
  if (pre.type === 'symlink')
    return fs.promises.readlink(target).then(
      (now) => now === pre.target,
      () => false,
    );
  if (pre.type !== 'file' || !pre.blob) return false;
  const hash = (file: string) => hashEntry(file).catch(() => null);
  const [now, kept] = await Promise.all([hash(target), hash(path.join(blobs, pre.blob))]);
  return now !== null && now === kept;
}
