/**
 * The recorded folders whose stamp covers what they hold (a folder the model made, or one undo
 * would put back whole) that hold a path a call changes. Each call stamps them again after its
 * change. Something else that changed one between two of the model's calls (the owner saved a
 * file into a folder the model made) must not become "what the model left": a folder found
 * changed before a call is not stamped again after it, so undo sees the difference and leaves the
 * folder, with what was added, as a conflict.
 */
import path from 'node:path';
import type { FoldedGroup } from './folded-group.js';
import { sameStamp, stamp } from './images.js';

/** The recorded covering folders holding any of `paths` (walked up from each: a group may hold thousands of paths). */
export function coveringFolders(group: FoldedGroup, paths: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const p of paths) for (let dir = path.dirname(p); dir !== path.dirname(dir); dir = path.dirname(dir)) if (group.paths.get(dir)?.tree) folders.add(dir);
  return folders;
}

/** Those of the covering folders of `paths` that no longer are as the model's last change left them. */
export async function changedMeanwhile(group: FoldedGroup, paths: readonly string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const dir of coveringFolders(group, paths)) {
    const post = group.paths.get(dir)?.post;
    if (post && post.type === 'directory' && !sameStamp(post, await stamp(dir, true))) changed.push(dir);
  }
  return changed;
}
