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

  async makeDirectory(dir, recursive) {
    const op = 'fs.mkdir';
    // The nearest existing ancestor is opened and confirmed; each missing level is created and opened from its parent.
    const missing: string[] = [];
    let existing = dir.path;
    for (;;) {
      const stat = await fs.promises.lstat(existing).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw fsError(error, op, existing);
      });
      if (stat?.isDirectory()) break;
      if (stat) {
        throw existing === dir.path
          ? adapterError('ALREADY_EXISTS', op, `${dir.path} already exists and is not a directory`)
          : adapterError('INVALID_INPUT', op, `${existing} is not a directory`);
      }
      const parent = nodePath.dirname(existing);
      if (parent === existing) throw adapterError('NOT_FOUND', op, `no part of ${dir.path} exists`);
      missing.unshift(nodePath.basename(existing));
      existing = parent;
    }
    if (missing.length === 0) return { created: false };
    if (missing.length > 1 && !recursive)
      throw adapterError('NOT_FOUND', op, `${nodePath.dirname(dir.path)} does not exist (pass recursive: true to create parents)`);
    try {
      await withDirectory(
        existing,
        (real) => dir.confirm(nodePath.join(real, ...missing)),
        op,
        async (top) => {
          let current = top;
          for (const [i, name] of missing.entries()) {
            await fs.promises.mkdir(current.entry(name)).catch((error: NodeJS.ErrnoException) => {
              // Created meanwhile by someone else: fine for a directory (child() refuses anything else).
              if (error.code !== 'EEXIST') throw error;
            });
            if (i === missing.length - 1) break;
            const next = await current.child(name);
            if (current !== top) await current.close();
            current = next;
          }
          await current.sync();
          if (current !== top) await current.close();
        },
      );
      return { created: true };
    } catch (error) {
      throw fsError(error, op, dir.path);
    }
  },

  async move(source, destination, overwrite) {
    const op = 'fs.move';
    try {
      await inParent(source, op, (from, name) =>
        inParent(destination, op, async (to, newName) => {
          await fs.promises.lstat(from.entry(name));
          const target = await fs.promises.lstat(to.entry(newName)).catch(() => null);
          if (target && !overwrite) throw adapterError('ALREADY_EXISTS', op, `${destination.path} already exists (pass overwrite: true to replace it)`);
          try {
            await fs.promises.rename(from.entry(name), to.entry(newName));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
            // Across devices rename cannot work: copy everything, then remove the source.
            if (target) await removeTreeEntry(to, newName);
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

async function describeEntry(dir: DirHandle, name: string): Promise<DirEntry | null> {
  try {
    const stat = await fs.promises.lstat(dir.entry(name));
    const type = entryType(stat);
    return { name, type, ...(type === 'file' ? { size: stat.size } : {}), mtime: stat.mtime.toISOString() };
  } catch {
    return null; // removed while listing
  }
}
