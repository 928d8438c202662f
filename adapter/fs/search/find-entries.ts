/** fs.find: entries whose path matches a glob, from the same checked walk as fs.search. */
import type { FindOptions, FoundEntry, GuardedPath } from '../../contract/files.js';
import { fsError } from '../fs-errors.js';
import { entryCallsFor, type WithEntryCalls } from './entry-calls.js';
import { EntryFilter, globMatcher } from './ignore-rules.js';
import { openStart, walk, type WalkContext } from './walk.js';

const op = 'fs.find';
const WALK_BUDGET = 200_000;

export async function findEntries(dir: GuardedPath, options: FindOptions & WithEntryCalls): Promise<{ entries: FoundEntry[]; truncated: boolean }> {
  const matches = globMatcher([options.pattern])!;
  const entries: FoundEntry[] = [];
  let seen = 0;
  let skip = options.offset ?? 0;
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
        if (skip > 0) {
          skip--;
          continue;
        }
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
