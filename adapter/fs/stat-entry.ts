/** fs.stat: one entry's facts through its opened parent, and its sha256 on request. */
import fs from 'node:fs';
import nodePath from 'node:path';
import { withDirectory, withDirectorySync } from './dir-handle.js';
import type { EntryStat, GuardedPath } from '../contract/files.js';
import { fsError } from './fs-errors.js';
import { entryType } from './entry-type.js';
import { hashEntry } from './write-text.js';

/**
 * Without a hash the whole work is an open, a readlink, an lstat and a close, microseconds each:
 * done synchronously, as a thread-pool hop per step cost more than the steps (fs.read's fast
 * path does the same). Hashing reads the file, so it stays asynchronous.
 */
export async function statEntry(entry: GuardedPath, options: { sha256?: boolean; signal?: AbortSignal } = {}): Promise<EntryStat> {
  const op = 'fs.stat';
  const name = nodePath.basename(entry.path);
  const confirm = (real: string) => entry.confirm(nodePath.join(real, name));
  try {
    if (!options.sha256) return withDirectorySync(nodePath.dirname(entry.path), confirm, op, (dir) => factsOf(fs.lstatSync(dir.entry(name))));
    return await withDirectory(nodePath.dirname(entry.path), confirm, op, async (dir) => {
      const facts = factsOf(await fs.promises.lstat(dir.entry(name)));
      if (facts.type === 'file') facts.sha256 = await hashEntry(dir.entry(name), options.signal);
      return facts;
    });
  } catch (error) {
    throw fsError(error, op, entry.path);
  }
}

function factsOf(stat: fs.Stats): EntryStat {
  return {
    type: entryType(stat),
    size: stat.size,
    mode: `0${(stat.mode & 0o7777).toString(8).padStart(3, '0')}`,
    mtime: stat.mtime.toISOString(),
    links: stat.nlink,
  };
}
