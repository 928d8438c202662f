/** fs.find: entries whose path matches a glob, from the same checked walk as fs.search. */
import type { GuardedPath } from '../file-ops.js';
import { fsError } from '../fs-errors.js';
import { entryCallsFor, type EntryCalls } from './entry-calls.js';
import { EntryFilter, globMatcher, type FilterOptions } from './ignore-rules.js';
import { openStart, walk, type WalkContext } from './walk.js';

const op = 'fs.find';
const WALK_BUDGET = 200_000;

export interface FindOptions extends Omit<FilterOptions, 'include'> {
  /** How the walk calls the filesystem; by default chosen from the mounts (entry-calls.ts). */
  entryCalls?: EntryCalls;
  /** A glob: without "/" it matches names at any depth, with "/" the path from the directory. */
  pattern: string;
  type: 'file' | 'directory' | 'any';
  maxResults: number;
  signal?: AbortSignal;
}

export interface FoundEntry {
  path: string;
  type: 'file' | 'directory';
  size?: number;
  mtime: string;
}

export async function findEntries(dir: GuardedPath, options: FindOptions): Promise<{ entries: FoundEntry[]; truncated: boolean }> {
  const matches = globMatcher([options.pattern])!;
  const entries: FoundEntry[] = [];
  let seen = 0;
  let truncated = false;
  try {
    const start = await openStart(dir, op);
    try {
      const filter = new EntryFilter({ ...options, include: [] });
      const calls = options.entryCalls ?? entryCallsFor(start.real);
      const context: WalkContext = { filter, confirm: (real: string) => dir.confirm(real), signal: options.signal, budget: () => ++seen <= WALK_BUDGET, calls };
      for await (const entry of walk(start, context)) {
        if (options.type !== 'any' && entry.type !== options.type) continue;
        if (!matches(entry.relative)) continue;
        if (entries.length === options.maxResults) {
          truncated = true;
          break;
        }
        entries.push({
          path: entry.relative,
          type: entry.type,
          ...(entry.type === 'file' ? { size: entry.stat.size } : {}),
          mtime: entry.stat.mtime.toISOString(),
        });
      }
      if (context.tooDeep) truncated = true;
    } finally {
      await start.close();
    }
  } catch (error) {
    throw fsError(error, op, dir.path);
  }
  return { entries, truncated: truncated || seen > WALK_BUDGET };
}
