/**
 * Undoing groups newest first, as the owner does: a file a later group changed is put back as
 * the earlier group's model left it, but on a new inode with new times, so the earlier group
 * would see "changed since" and refuse it. Once a file is put back, an earlier group whose last
 * stamp of it is exactly what the later group found (its `was`) gets a stamp of the file as it
 * is now, when its bytes are the ones the later group kept: the earlier group then undoes it as if
 * the later one had never run. An owner's edit in between breaks the byte check and stays a
 * conflict.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UndoOutcome } from '../../contract/journal.js';
import { hashEntry } from '../write-text.js';
import { sameStamp, shallowStamp, type Image } from './images.js';
import type { FoldedGroup, JournalFiles } from './journal-files.js';

export async function restampEarlierGroups(files: JournalFiles, undone: FoldedGroup, outcome: UndoOutcome, at: string): Promise<void> {
  const restored = outcome.restored.flatMap((p) => {
    const info = undone.paths.get(p);
    return info && (info.pre.type === 'file' || info.pre.type === 'symlink') && info.was.type === info.pre.type ? [[p, info] as const] : [];
  });
  if (restored.length === 0) return;
  const blobs = files.blobs(undone.meta.id);
  for (const id of await files.ids()) {
    if (id >= undone.meta.id || files.undoBegun(id)) continue;
    const earlier = await files.read(id).catch(() => null);
    if (!earlier) continue;
    for (const [p, info] of restored) {
      const known = earlier.paths.get(p);
      if (!known?.post || !sameStamp(known.post, info.was) || !(await asKept(p, info.pre, blobs))) continue;
      files.append(id, [{ k: 'post', t: 'undo', p, s: shallowStamp(p), ...(known.sha ? { c: known.sha } : {}), at }]);
    }
  }
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
