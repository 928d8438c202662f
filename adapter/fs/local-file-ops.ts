/** FileOps on Node's fs: directory listing, mkdir, move and delete; read/write in their own modules. */
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../errors.js';
import { fsError } from './fs-errors.js';
import type { DirEntry, EntryType, FileOps } from './file-ops.js';
import { readTextFile } from './read-text.js';
import { writeTextFile } from './write-text.js';

export function entryType(stat: fs.Stats | fs.Dirent): EntryType {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFile()) return 'file';
  return 'other';
}

export const localFileOps: FileOps = {
  readTextFile,
  writeTextFile,

  async listDirectory(path, { limit, hide }) {
    let names: string[];
    try {
      names = (await fs.promises.readdir(path)).filter((name) => !hide?.(name)).sort();
    } catch (error) {
      throw fsError(error, 'fs.list', path);
    }
    const shown = names.slice(0, limit);
    const entries = await Promise.all(shown.map((name) => describeEntry(path, name)));
    return { entries: entries.filter((e): e is DirEntry => e !== null), truncated: names.length > shown.length };
  },

  async makeDirectory(path, recursive) {
    try {
      const stat = await fs.promises.lstat(path).catch(() => null);
      if (stat?.isDirectory()) return { created: false };
      if (stat) throw adapterError('ALREADY_EXISTS', 'fs.mkdir', `${path} already exists and is not a directory`);
      await fs.promises.mkdir(path, { recursive });
      return { created: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw adapterError('NOT_FOUND', 'fs.mkdir', `${nodePath.dirname(path)} does not exist (pass recursive: true to create parents)`);
      }
      throw fsError(error, 'fs.mkdir', path);
    }
  },

  async move(source, destination, overwrite) {
    try {
      await fs.promises.lstat(source);
      const target = await fs.promises.lstat(destination).catch(() => null);
      if (target && !overwrite) throw adapterError('ALREADY_EXISTS', 'fs.move', `${destination} already exists (pass overwrite: true to replace it)`);
      await fs.promises.rename(source, destination).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        // Across devices rename cannot work: copy everything, then remove the source.
        await fs.promises.cp(source, destination, { recursive: true, force: overwrite, errorOnExist: !overwrite, verbatimSymlinks: true });
        await fs.promises.rm(source, { recursive: true });
      });
    } catch (error) {
      throw fsError(error, 'fs.move', source);
    }
  },

  async remove(path, recursive) {
    try {
      const stat = await fs.promises.lstat(path);
      const type = entryType(stat);
      if (type === 'directory') {
        if (recursive) await fs.promises.rm(path, { recursive: true });
        else await fs.promises.rmdir(path);
      } else {
        await fs.promises.unlink(path);
      }
      return { type };
    } catch (error) {
      throw fsError(error, 'fs.delete', path);
    }
  },
};

async function describeEntry(dir: string, name: string): Promise<DirEntry | null> {
  try {
    const stat = await fs.promises.lstat(nodePath.join(dir, name));
    const type = entryType(stat);
    return { name, type, ...(type === 'file' ? { size: stat.size } : {}), mtime: stat.mtime.toISOString() };
  } catch {
    return null; // removed while listing
  }
}
