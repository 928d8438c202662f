/**
 * A folder taken whole (fs.delete, fs.move) after the group already changed paths inside it:
 * its capture holds what the model left there, not what was there before the group. Undo puts
 * the folder back as it was before, so each earlier pre-image inside it replaces what the
 * capture says at its place, and those paths are then put back with the folder, not on their own
 * (judged alone, they would be "removed after the model changed them" and the model's bytes
 * would come back with the folder).
 */
import { byRecordedName } from './entry-names.js';
import type { Image } from './images.js';

type Entries = NonNullable<Extract<Image, { type: 'directory' }>['entries']>;

/** What the group held before a path's pre-image: the paths' first pre-images, in the order the group met them. */
export interface EarlierPath {
  pre: Image;
  /** Set here: the folder whose pre-image now holds this path's. */
  within?: string;
}

/**
 * The folder's pre-image with the earlier pre-images of paths inside it put in; those paths are
 * marked `within` it. A path whose place the capture lacks (a folder above it went meanwhile,
 * recorded on its own) is left to undo alone.
 */
export function withEarlierImages(folder: string, image: Image, paths: ReadonlyMap<string, EarlierPath>): Image {
  if (image.type !== 'directory' || !image.entries) return image;
  const prefix = `${folder}/`;
  const root: Image = { ...image, entries: [...image.entries] };
  const placed: string[] = [];
  // In the order the group met them: a path inside one already placed is in that one's pre-image (it was taken earlier, or holds this one's).
  for (const [p, info] of paths) {
    if (!p.startsWith(prefix)) continue;
    if (placed.some((q) => p.startsWith(`${q}/`))) {
      info.within = folder;
      continue;
    }
    if (place(root, p.slice(prefix.length).split('/'), info.pre)) {
      placed.push(p);
      info.within = folder;
    }
  }
  return root;
}

/** Puts `pre` at `parts` inside `folder` (copying the folders on the way, so the capture as recorded stays as it was); false when a folder on the way is not there. */
function place(folder: Image, parts: readonly string[], pre: Image): boolean {
  if (folder.type !== 'directory' || !folder.entries) return false;
  const [name, ...rest] = parts;
  const entries: Entries = folder.entries;
  // A path the model named is text: never an entry whose name is not UTF-8, though that one reads the same (U+FFFD).
  const at = entries.findIndex((e) => e.name === name && e.raw === undefined);
  if (rest.length === 0) {
    if (at >= 0) entries.splice(at, 1);
    if (pre.type !== 'absent') entries.push({ name: name!, image: pre });
    entries.sort(byRecordedName);
    return true;
  }
  if (at < 0) return false;
  const inner = entries[at]!.image;
  if (inner.type !== 'directory' || !inner.entries) return false;
  const copy: Image = { ...inner, entries: [...inner.entries] };
  if (!place(copy, rest, pre)) return false;
  entries[at] = { name: name!, image: copy };
  return true;
}
