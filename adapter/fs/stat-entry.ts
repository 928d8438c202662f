/** fs.stat: one entry's facts through its opened parent, and its sha256 on request. */
import fs from 'node:fs';
import nodePath from 'node:path';
import { withDirectory } from './dir-handle.js';
import type { EntryType, GuardedPath } from './file-ops.js';
import { fsError } from './fs-errors.js';
import { entryType } from './entry-type.js';
import { hashEntry } from './write-text.js';

export interface EntryStat {
  type: EntryType;
  size: number;
  /** Permission bits in octal, e.g. "0644". */
  mode: string;
  mtime: string;
  links: number;
  sha256?: string;
}

export async function statEntry(entry: GuardedPath, options: { sha256?: boolean; signal?: AbortSignal } = {}): Promise<EntryStat> {
  const op = 'fs.stat';
  const name = nodePath.basename(entry.path);
  try {
    return await withDirectory(
      nodePath.dirname(entry.path),
      (real) => entry.confirm(nodePath.join(real, name)),
      op,
      async (dir) => {
        const stat = await fs.promises.lstat(dir.entry(name));
        const type = entryType(stat);
        const facts: EntryStat = {
          type,
          size: stat.size,
          mode: `0${(stat.mode & 0o7777).toString(8).padStart(3, '0')}`,
          mtime: stat.mtime.toISOString(),
          links: stat.nlink,
        };
        if (options.sha256 && type === 'file') facts.sha256 = await hashEntry(dir.entry(name), options.signal);
        return facts;
      },
    );
  } catch (error) {
    throw fsError(error, op, entry.path);
  }
}
