/**
 * Recursive removal and copy that walk through opened directories (dir-handle.ts): every
 * subdirectory is opened with no-follow from its parent's descriptor, so swapping a directory
 * inside the tree for a symlink mid-walk makes the walk fail there instead of following the
 * link out of the tree (a path-based walk such as fs.rm would delete or copy what it points to).
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import type { DirHandle } from './dir-handle.js';

/** Removes `name` in `dir`: a file or link is unlinked, a directory emptied depth-first, then removed. */
export async function removeTreeEntry(dir: DirHandle, name: string): Promise<void> {
  const stat = await fs.promises.lstat(dir.entry(name));
  if (!stat.isDirectory()) return fs.promises.unlink(dir.entry(name));
  const child = await dir.child(name);
  try {
    for (const entry of await fs.promises.readdir(child.self)) await removeTreeEntry(child, entry);
  } finally {
    await child.close();
  }
  await fs.promises.rmdir(dir.entry(name));
}

/** Copies `name` from one opened directory to another (files, directories, symlinks as links), for moves across devices. */
export async function copyEntry(from: DirHandle, name: string, to: DirHandle, newName: string): Promise<void> {
  const source = from.entry(name);
  const stat = await fs.promises.lstat(source);
  if (stat.isSymbolicLink()) return fs.promises.symlink(await fs.promises.readlink(source), to.entry(newName));
  if (stat.isFile()) return fs.promises.copyFile(source, to.entry(newName), fs.constants.COPYFILE_EXCL);
  if (!stat.isDirectory()) throw Object.assign(new Error(`${nodePath.join(from.real, name)} is not a file, directory or symlink`), { code: 'EINVAL' });
  await fs.promises.mkdir(to.entry(newName), { mode: stat.mode & 0o777 });
  const [sourceDir, targetDir] = [await from.child(name), await to.child(newName)];
  try {
    for (const entry of await fs.promises.readdir(sourceDir.self)) await copyEntry(sourceDir, entry, targetDir, entry);
  } finally {
    await Promise.all([sourceDir.close(), targetDir.close()]);
  }
}
