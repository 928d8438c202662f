/** fs.mkdir, and the folders fs.patch creates for new files: each level made from its opened parent. */
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../contract/errors.js';
import { withDirectory } from './dir-handle.js';
import type { GuardedPath } from '../contract/files.js';
import { fsError } from './fs-errors.js';

const op = 'fs.mkdir';

export async function makeDirectory(dir: GuardedPath, recursive: boolean): Promise<{ created: boolean }> {
  return { created: (await makeDirectories(dir, recursive)).length > 0 };
}

/**
 * Creates `dir` (and with `recursive` its missing parents); returns the directories this call
 * created, outermost first (one another program created meanwhile is not among them). The
 * nearest existing ancestor is opened and confirmed; each missing level is created and opened
 * from its parent.
 */
export async function makeDirectories(dir: GuardedPath, recursive: boolean): Promise<string[]> {
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
  if (missing.length === 0) return [];
  if (missing.length > 1 && !recursive)
    throw adapterError('NOT_FOUND', op, `${nodePath.dirname(dir.path)} does not exist (pass recursive: true to create parents)`);
  const made: string[] = [];
  try {
    await withDirectory(
      existing,
      (real) => dir.confirm(nodePath.join(real, ...missing)),
      op,
      async (top) => {
        let current = top;
        for (const [i, name] of missing.entries()) {
          const created = await fs.promises.mkdir(current.entry(name)).then(
            () => true,
            (error: NodeJS.ErrnoException) => {
              // Created meanwhile by someone else: fine for a directory (child() refuses anything else).
              if (error.code !== 'EEXIST') throw error;
              return false;
            },
          );
          if (created) made.push(nodePath.join(existing, ...missing.slice(0, i + 1)));
          if (i === missing.length - 1) break;
          const next = await current.child(name);
          if (current !== top) await current.close();
          current = next;
        }
        await current.sync();
        if (current !== top) await current.close();
      },
    );
    return made;
  } catch (error) {
    throw fsError(error, op, dir.path);
  }
}
