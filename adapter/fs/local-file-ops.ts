/** FileOps on Node's fs: listing, mkdir, move and delete here; read and write in their own modules. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../contract/errors.js';
import { withDirectory, type DirHandle } from './dir-handle.js';
import { fsError } from './fs-errors.js';
import { entryType } from './entry-type.js';
import type { DirEntry, FileOps } from '../contract/files.js';
import { readTextFile } from './read-text.js';
import { readFileAs } from './formats/read-as.js';
import { inParent } from './in-parent.js';
import { removeEntry } from './remove-entry.js';
import { copyEntry, mayRemove, removeTreeEntry, removeWhole } from './tree.js';
import { createFile, writeTextFile } from './write-text.js';
import { editTextFile } from './edit-text.js';
import { makeDirectory } from './make-directory.js';
import { applyPatchText } from './patch/commit-patch.js';
import { findEntries } from './search/find-entries.js';
import { searchFiles } from './search/search-files.js';
import { statEntry } from './stat-entry.js';

export const localFileOps: FileOps = {
  readTextFile,
  readFileAs,
  writeTextFile,
  createFile,
  statEntry,
  editTextFile,
  applyPatch: applyPatchText,
  searchFiles,
  findEntries,

  async listDirectory(dir, { limit, offset = 0, hide }) {
    try {
      return await withDirectory(
        dir.path,
        (real) => dir.confirm(real),
        'fs.list',
        async (opened) => {
          const names = (await fs.promises.readdir(opened.self)).filter((name) => !hide?.(name)).sort();
          const shown = names.slice(offset, offset + limit);
          const entries = await Promise.all(shown.map((name) => describeEntry(opened, name)));
          return { entries: entries.filter((e): e is DirEntry => e !== null), truncated: names.length > offset + shown.length, total: names.length };
        },
      );
    } catch (error) {
      throw fsError(error, 'fs.list', dir.path);
    }
  },

  makeDirectory,

  async move(source, destination, overwrite) {
    const op = 'fs.move';
    try {
      await inParent(source, op, async (from, name) => {
        await fs.promises.lstat(from.entry(name));
        // A destination whose folder is missing is named as such (it was reported as the source missing).
        let opened = false;
        await inParent(destination, op, async (to, newName) => {
          opened = true;
          const target = await fs.promises.lstat(to.entry(newName)).catch(() => null);
          if (target && !overwrite) throw adapterError('ALREADY_EXISTS', op, `${destination.path} already exists (pass overwrite: true to replace it)`);
          try {
            await fs.promises.rename(from.entry(name), to.entry(newName));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
            await moveAcrossDevices(from, name, to, newName, overwrite);
          }
          await Promise.all([from.sync(), to.sync()]);
        }).catch((error: unknown) => {
          if (opened || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          throw adapterError('NOT_FOUND', op, `${nodePath.dirname(destination.path)} does not exist; create it first with fs.mkdir`);
        });
      });
    } catch (error) {
      throw fsError(error, op, source.path);
    }
  },
  remove: removeEntry,
};

/**
 * rename(2) where it cannot work (EXDEV): the source is copied under a temporary name beside the
 * destination and renamed into place on that device, which replaces exactly what a rename
 * replaces (a file, or an empty directory with a directory) and fails as it would; only then is
 * the source removed. A copy or rename that fails removes the temporary copy and leaves both
 * sides as they were.
 */
async function moveAcrossDevices(from: DirHandle, name: string, to: DirHandle, newName: string, overwrite: boolean): Promise<void> {
  const temp = `.${newName}.moving-${randomBytes(6).toString('hex')}`;
  // Before the destination is replaced: a source that cannot go (immutable, a sticky folder's) leaves it as it was.
  // removeWhole checks the tree again after the copy, which can take long enough for it to change.
  await mayRemove(from, name);
  try {
    await copyEntry(from, name, to, temp);
    // Checked again just before: a destination that appeared during the copy is not replaced unasked.
    if (!overwrite && (await fs.promises.lstat(to.entry(newName)).catch(() => null))) {
      throw adapterError('ALREADY_EXISTS', 'fs.move', `${nodePath.join(to.real, newName)} already exists (pass overwrite: true to replace it)`);
    }
    await fs.promises.rename(to.entry(temp), to.entry(newName));
  } catch (error) {
    await removeTreeEntry(to, temp).catch(() => undefined);
    throw error;
  }
  await removeWhole(from, name).catch(async (error: Error & { partly?: boolean }) => {
    // Nothing of the source was taken (another user's file in a sticky folder, say): the copy goes
    // again, so a move that fails leaves both sides as they were; past that, the copy is kept.
    if (!error.partly) await removeTreeEntry(to, newName).catch(() => undefined);
    throw error;
  });
}

async function describeEntry(dir: DirHandle, name: string): Promise<DirEntry | null> {
  try {
    const stat = await fs.promises.lstat(dir.entry(name));
    const type = entryType(stat);
    return { name, type, ...(type === 'file' ? { size: stat.size } : {}), mtime: stat.mtime.toISOString() };
  } catch {
    return null; // removed while listing
  }
}
