import fs from 'node:fs';
import { entryType } from './entry-type.js';
import type { EntryType, GuardedPath } from '../contract/files.js';
import { fsError } from './fs-errors.js';
import { inParent } from './in-parent.js';
import { confirmTree, removeWhole } from './tree.js';

/** Removes the entry itself (a symlink is removed, never its target); a directory only with `recursive` unless empty. */
export async function removeEntry(entry: GuardedPath, recursive: boolean): Promise<{ type: EntryType }> {
  const op = 'fs.delete';
  try {
    return await inParent(entry, op, async (dir, name) => {
      const type = entryType(await fs.promises.lstat(dir.entry(name)));
      if (type !== 'directory') await fs.promises.unlink(dir.entry(name));
      else if (recursive) {
        await confirmTree(dir, name, entry.confirm);
        await removeWhole(dir, name);
      } else await fs.promises.rmdir(dir.entry(name));
      await dir.sync();
      return { type };
    });
  } catch (error) {
    throw fsError(error, op, entry.path);
  }
}
