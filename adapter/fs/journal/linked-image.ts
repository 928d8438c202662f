/**
 * A pre-image kept without copying a byte: when the writer is about to replace a file by a
 * rename, the journal hard-links the old inode into the group's blobs just before, and after the
 * rename that inode lives on only there (link(2) is one metadata operation; the copy it saves
 * is a read and a write of the whole file).
 *
 * Taken only where the link shares the inode with nothing else: the file has one link and is
 * the server user's own (a file of another user stays theirs, and fs.protected_hardlinks may
 * refuse the link), and right after the link it has exactly two. Anything else, and any failure
 * of link(2) (EXDEV: the journal on another filesystem, EPERM, a filesystem without links), is
 * copied as before. The blob keeps the file's own mode: the journal's folders are owner-only,
 * so nobody reaches it who could not reach the file.
 *
 * Races, against a copy taken before the write: a program writing the file in place between
 * the link and the rename lands in the pre-image (it is then what the file was just before the
 * change; a copy would have missed it, and undo would have put back an older state). A program
 * that had the old file open may still write it through its descriptor after the rename: the
 * blob's stamp once the change is done (its seal) lets undo tell, and refuse. Neither gives
 * anyone more than the write access to the file they already had. A crash between the link and
 * the rename leaves the file with two links (the journal's one, which writes would refuse as
 * shared): the next process to open a group gives every such blob an inode of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ExistingFile } from '../../contract/files.js';
import { sameStamp, shallowStamp, type Image, type Stamp } from './images.js';

/** The server's user (asked once: getuid is a system call). */
const OWN_UID = process.getuid?.();

/** Links `entry` (about to be replaced) as `blob`: its pre-image, or null when it must be copied instead. */
export function linkReplaced(entry: string, blob: string, file: ExistingFile, name: string): Image | null {
  if (file.nlink !== 1 || file.uid !== OWN_UID) return null;
  try {
    fs.linkSync(entry, blob);
  } catch {
    return null;
  }
  const held = fs.lstatSync(blob);
  if (!held.isFile() || held.nlink !== 2 || held.uid !== file.uid) {
    fs.unlinkSync(blob);
    return null;
  }
  return { type: 'file', mode: held.mode & 0o7777, mtimeMs: held.mtimeMs, size: held.size, uid: held.uid, gid: held.gid, blob: name, linked: true };
}

/**
 * After the change: a blob whose inode has another name (the rename did not happen, or someone
 * linked it meanwhile) becomes a copy of its own, so the live file never refuses a later write
 * for the journal's link and the pre-image never changes with it. Answers the blob's seal.
 */
export function sealLinked(blob: string): Stamp | Promise<Stamp> {
  const held = fs.lstatSync(blob);
  if (held.nlink === 1) return shallowStamp(blob, held);
  return unshare(blob).then(() => shallowStamp(blob));
}

/** Blobs a crash left sharing an inode (linked, and the rename never came): each made a copy of its own. */
export async function unshareLeftovers(blobFolders: readonly string[]): Promise<void> {
  for (const folder of blobFolders)
    for (const name of await fs.promises.readdir(folder).catch(() => [])) {
      const blob = path.join(folder, name);
      const held = await fs.promises.lstat(blob).catch(() => null);
      if (held?.isFile() && held.nlink > 1) await unshare(blob);
    }
}

async function unshare(blob: string): Promise<void> {
  const copy = `${blob}.copy`;
  await fs.promises.copyFile(blob, copy, fs.constants.COPYFILE_FICLONE);
  fs.chmodSync(copy, 0o600);
  fs.renameSync(copy, blob);
}

/** Whether a linked pre-image is still what was sealed (a copied one always is). */
export async function stillSealed(image: Image, seal: Stamp | undefined, blobs: string): Promise<boolean> {
  if (image.type !== 'file' || !image.linked || !image.blob) return true;
  return seal !== undefined && sameStamp(shallowStamp(`${blobs}/${image.blob}`), seal);
}

export const CHANGED_AFTER = 'its earlier content was kept as a link to the replaced file, and a program that still had that file open changed it afterwards';
