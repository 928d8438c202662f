/** FileOps on Node's fs: listing, mkdir, move and delete here; read and write in their own modules. */
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../errors.js';
import { withDirectory, type DirHandle } from './dir-handle.js';
import { fsError } from './fs-errors.js';
import { entryType } from './entry-type.js';
import type { DirEntry, FileOps } from './file-ops.js';
import { readTextFile } from './read-text.js';
import { inParent } from './in-parent.js';
import { removeEntry } from './remove-entry.js';
import { copyEntry, removeTreeEntry } from './tree.js';
import { createFile, writeTextFile } from './write-text.js';
import { editTextFile } from './edit-text.js';
import { makeDirectory } from './make-directory.js';
import { applyPatchText } from './patch/commit-patch.js';
import { findEntries } from './search/find-entries.js';
import { searchFiles } from './search/search-files.js';
import { statEntry } from './stat-entry.js';

export const localFileOps: FileOps = {
  readTextFile,
  writeTextFile,
  createFile,
  statEntry,
  editTextFile,
  applyPatch: applyPatchText,
  searchFiles,
  findEntries,

  async listDirectory(dir, { limit, hide }) {
    try {
      return await withDirectory(
        dir.path,
        (real) => dir.confirm(real),
        'fs.list',
        async (opened) => {
          const names = (await fs.promises.readdir(opened.self)).filter((name) => !hide?.(name)).sort();
          const shown = names.slice(0, limit);
          const entries = await Promise.all(shown.map((name) => describeEntry(opened, name)));
          return { entries: entries.filter((e): e is DirEntry => e !== null), truncated: names.length > shown.length };
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
      await inParent(source, op, (from, name) =>
        inParent(destination, op, async (to, newName) => {
          const source = await fs.promises.lstat(from.entry(name));
          const target = await fs.promises.lstat(to.entry(newName)).catch(() => null);
          if (target && !overwrite) throw adapterError('ALREADY_EXISTS', op, `${destination.path} already exists (pass overwrite: true to replace it)`);
          try {
            await fs.promises.rename(from.entry(name), to.entry(newName));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
            // Across devices rename cannot work: copy everything, then remove the source. What is
            // replaced is what rename would replace: a file or link, or an empty directory for a directory.
            if (target) await replaceable(to, newName, target, source.isDirectory());
            await copyEntry(from, name, to, newName);
            await removeTreeEntry(from, name);
          }
          await Promise.all([from.sync(), to.sync()]);
        }),
      );
    } catch (error) {
      throw fsError(error, op, source.path);
    }
  },
  remove: removeEntry,
};

/** Removes what a rename onto `name` would have replaced, or throws rename's own error (EISDIR, ENOTDIR, ENOTEMPTY). */
async function replaceable(dir: DirHandle, name: string, target: fs.Stats, sourceIsDirectory: boolean): Promise<void> {
  const error = (code: string) => Object.assign(new Error(`${nodePath.join(dir.real, name)}: ${code}`), { code });
  if (!target.isDirectory()) {
    if (sourceIsDirectory) throw error('ENOTDIR');
    return fs.promises.unlink(dir.entry(name));
  }
  if (!sourceIsDirectory) throw error('EISDIR');
  // rmdir fails with ENOTEMPTY on a directory that holds anything, as rename would.
  return fs.promises.rmdir(dir.entry(name));
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
