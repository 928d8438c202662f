/**
 * fs.search: matching lines under a directory. With ripgrep on the machine it picks the
 * candidate files fast (it reads the same ignore rules); without it every file is a candidate.
 * Either way the same walk then visits them: through the checked directories (no symlink
 * followed, each step confirmed with the policy), with the same filters, and matched by the
 * same code. So both engines give the same answer as long as ripgrep's candidates include ours,
 * and nothing ripgrep might have read through a swapped link, a secret or a denied file, or
 * picked by a rule of its own, can appear in it.
 */
import { spawn } from 'node:child_process';
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath, SearchOptions, SearchResult } from '../../contract/files.js';
import type { DirHandle } from '../dir-handle.js';
import { fsError } from '../fs-errors.js';
import { EntryFilter, searchGlob } from './ignore-rules.js';
import { entryCallsFor, type WithEntryCalls } from './entry-calls.js';
import { compileMatcher, isBinary, matchLines } from './match-lines.js';
import { TimeLimitExceeded, withTimeLimit } from './time-limit.js';
import { openStart, walk, type WalkContext } from './walk.js';

const op = 'fs.search';
/** Entries a built-in walk looks at before it stops and says the result is partial. */
const WALK_BUDGET = 200_000;
/** Time one file's matching may take with a caller's regular expression. */
const REGEX_TIME_LIMIT_MS = 2000;
/** Candidate files taken from ripgrep (it is stopped beyond). */
const MAX_CANDIDATES = 20_000;

export async function searchFiles(dir: GuardedPath, options: SearchOptions & WithEntryCalls): Promise<SearchResult> {
  let matcher: RegExp;
  try {
    matcher = compileMatcher(options.pattern, options.regex, options.caseSensitive);
  } catch (error) {
    throw adapterError('INVALID_INPUT', op, `pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  try {
    const start = await openStart(dir, op);
    try {
      const candidates = options.ripgrep ? await ripgrepCandidates(options.ripgrep, dir.path, options).catch(fallBack) : null;
      return await collect(start, dir, matcher, options, candidates);
    } finally {
      await start.close();
    }
  } catch (error) {
    throw fsError(error, op, dir.path);
  }
}

async function collect(
  start: DirHandle,
  dir: GuardedPath,
  matcher: RegExp,
  options: SearchOptions & WithEntryCalls,
  candidates: string[] | null,
): Promise<SearchResult> {
  const result: SearchResult = { matches: [], truncated: false, filesWithMatches: 0, engine: candidates ? 'ripgrep' : 'builtin' };
  let bytes = 0;
  // Exact for a case-sensitive literal: UTF-8 is self-synchronizing and lenient decoding only adds U+FFFD.
  const needle = !options.regex && options.caseSensitive && !options.pattern.includes('\ufffd') ? Buffer.from(options.pattern) : null;
  /**
   * Adds a file's matching lines; false once something did not fit (then it is marked
   * truncated). A full answer goes on to the next match, so that truncated means there is more.
   */
  const take = (relative: string, content: Buffer): boolean => {
    // Most files do not contain a literal at all: say so from the bytes, before decoding and splitting.
    if (needle && !content.includes(needle)) return true;
    if (isBinary(content)) return true;
    const left = options.maxMatches - result.matches.length;
    const perFile = options.maxMatchesPerFile ?? Infinity;
    const room = Math.min(left, perFile);
    const found = options.regex
      ? matchInTime(relative, () => matchLines(content, matcher, options.contextLines, room))
      : matchLines(content, matcher, options.contextLines, room);
    // More lines in this file past its own limit is not more of the answer.
    if (perFile < left) found.more = false;
    if (room === 0 || found.matches.length === 0) {
      if (found.more) result.truncated = true;
      return !found.more;
    }
    result.filesWithMatches++;
    for (const match of found.matches) {
      const size = [match.text, ...(match.before ?? []), ...(match.after ?? [])].reduce((n, line) => n + Buffer.byteLength(line), 0);
      if (bytes + size > options.maxBytes) {
        result.truncated = true;
        return false;
      }
      bytes += size;
      result.matches.push({ path: relative, ...match });
    }
    if (found.more) {
      result.truncated = true;
      return false;
    }
    return true;
  };

  // ripgrep only narrows which files are looked at: the same walk, filters and checks decide.
  const wanted = candidates ? wantedPaths(candidates) : undefined;
  let seen = 0;
  const filter = new EntryFilter(options);
  const calls = options.entryCalls ?? entryCallsFor(start.real);
  const context: WalkContext = {
    filter,
    confirm: (real: string) => dir.confirm(real),
    signal: options.signal,
    budget: () => ++seen <= WALK_BUDGET,
    wanted,
    calls,
  };
  for await (const entry of walk(start, context)) {
    if (entry.type !== 'file' || entry.stat.size > options.maxFileBytes) continue;
    const content = await calls.read(entry.dir.entry(entry.name), options.maxFileBytes);
    if (content && !take(entry.relative, content)) break;
  }
  if (options.signal?.aborted) throw cancelled();
  if (seen > WALK_BUDGET || context.tooDeep) result.truncated = true;
  return result;
}

/** A regular expression that backtracks for seconds on one file would hold up every other call: it fails instead. */
function matchInTime<T>(relative: string, match: () => T): T {
  try {
    return withTimeLimit(REGEX_TIME_LIMIT_MS, match);
  } catch (error) {
    if (!(error instanceof TimeLimitExceeded)) throw error;
    throw adapterError(
      'TIMEOUT',
      op,
      `the regular expression ran for over ${REGEX_TIME_LIMIT_MS / 1000} s on ${relative} and was stopped: it backtracks too much (nested repetition such as (a+)+ or (a|a)*); simplify it or search for a literal`,
    );
  }
}

/** The candidate files and every folder on the way to them. */
function wantedPaths(files: readonly string[]): (relative: string) => boolean {
  const wanted = new Set<string>();
  for (const file of files) {
    wanted.add(file);
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) wanted.add(file.slice(0, at));
  }
  return (relative) => wanted.has(relative);
}

/**
 * Escapes ripgrep reads differently from our JavaScript expressions (Unicode-aware there, ASCII
 * or wider here): \b next to "é", \s for U+FEFF, \W and \D for non-ASCII letters and digits.
 * With them ripgrep could miss a file we match, so it only lists the files to look at.
 */
const READ_DIFFERENTLY = /\\[bBsWD]/;

/**
 * Files ripgrep finds a match in (or, when its reading of the expression could differ, every
 * file it would search), with the same filters as the built-in walk: a superset of ours
 * (include globs there also lift ignore rules), or null when there are too many to pass on.
 */
function ripgrepCandidates(rg: string, cwd: string, options: SearchOptions & WithEntryCalls): Promise<string[] | null> {
  const listOnly = options.regex && READ_DIFFERENTLY.test(options.pattern);
  const args = [listOnly ? '--files' : '--files-with-matches', '--null', '--no-config', '--no-messages', '--no-ignore-parent', '--no-ignore-global'];
  args.push('--no-ignore-exclude', '--no-require-git', `--max-filesize=${options.maxFileBytes}`, '--glob=!.git');
  if (!options.regex) args.push('--fixed-strings');
  // Lines are matched without their CR here, so $ must match before a CRLF there too.
  else args.push('--crlf');
  if (!options.caseSensitive) args.push('--ignore-case');
  if (options.hidden) args.push('--hidden');
  if (!options.gitignore) args.push('--no-ignore');
  for (const glob of options.include) args.push(`--glob=${searchGlob(glob)}`);
  for (const glob of options.exclude) args.push(`--glob=!${searchGlob(glob)}`);
  if (!listOnly) args.push('--regexp', options.pattern);
  args.push('--', '.');
  return new Promise((resolve, reject) => {
    // Exactly ripgrep's own needs: no inherited environment (no RIPGREP_CONFIG_PATH, no token).
    const child = spawn(rg, args, { cwd, env: {}, stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let out = '';
    let stderr = '';
    let count = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      count += chunk.split('\0').length - 1;
      if (count > MAX_CANDIDATES) child.kill();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk.slice(0, 2000)));
    // A cancelled request kills ripgrep (spawn's signal) and is reported as cancelled, not as a failure.
    child.once('error', (error) => reject(options.signal?.aborted ? cancelled() : error));
    child.once('close', (code) => {
      // More than we take: a cut list would leave out files the walk should see; it walks them all.
      if (count > MAX_CANDIDATES) return resolve(null);
      // 0: matches, 1: none; 2 with output: some files unreadable. A pattern ripgrep rejects falls back to the built-in engine.
      if (code === 2 && out === '') return reject(Object.assign(new Error(stderr.split('\n')[0]), { ripgrepRejected: true }));
      resolve(
        out
          .split('\0')
          .filter(Boolean)
          .map((p) => p.replace(/^\.\//, '')),
      );
    });
  });
}

/** A pattern ripgrep's regex engine rejects (look-around, back-references), or a ripgrep that will not start: the built-in engine searches. */
function fallBack(error: unknown): null {
  const e = error as { ripgrepRejected?: boolean; code?: string };
  if (e.ripgrepRejected || e.code === 'ENOENT' || e.code === 'EACCES') return null;
  throw error;
}

function cancelled(): Error {
  return adapterError('PRECONDITION_FAILED', op, 'the request was cancelled');
}
