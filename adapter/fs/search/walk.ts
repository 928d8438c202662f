/**
 * Walks a directory tree through opened directories (dir-handle.ts): no symlink is followed,
 * every directory and file is confirmed with the policy before it is entered or returned, and
 * names are visited in sorted order. Entries the policy refuses (secrets, this app's files)
 * are skipped silently, as fs.list hides them.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../../contract/errors.js';
import { DirHandle } from '../dir-handle.js';
import type { GuardedPath } from '../../contract/files.js';
import { READ_FLAGS } from '../read-text.js';
import type { EntryCalls } from './entry-calls.js';
import { IGNORE_FILES, type EntryFilter, type IgnoreFile } from './ignore-rules.js';

export interface WalkedEntry {
  /** Path from the walk's start, with "/" separators. */
  relative: string;
  real: string;
  type: 'file' | 'directory';
  stat: fs.Stats;
  dir: DirHandle;
  name: string;
}

export interface WalkContext {
  filter: EntryFilter;
  /** The policy's re-check of a real path (GuardedPath.confirm); a throw means skip. */
  confirm(real: string): void;
  signal?: AbortSignal;
  /** Counts every entry looked at; the walk stops when it returns false. */
  budget(): boolean;
  /** When given, only these paths are looked at (files ripgrep found, and the folders to them). */
  wanted?: ((relative: string) => boolean) | undefined;
  /** Synchronous or through the thread pool (entry-calls.ts: entryCallsFor the start's real path). */
  calls: EntryCalls;
  /** Set by the walk when it left out folders deeper than MAX_WALK_DEPTH (the answer is then incomplete). */
  tooDeep?: boolean;
}

/**
 * Levels below the start the walk goes into. Each level is a nested generator and an open
 * folder: a tree nested ~850 deep exhausted the stack, and the folders open on the way were
 * never closed. Real trees are far shallower.
 */
export const MAX_WALK_DEPTH = 256;

/** Opens the folder a walk starts from, confirmed with the policy; a file there is named as such. */
export async function openStart(dir: GuardedPath, operation: string): Promise<DirHandle> {
  try {
    return await DirHandle.open(dir.path, (real) => dir.confirm(real), operation);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    throw adapterError('INVALID_INPUT', operation, `${dir.path} is not a directory; ${operation} looks under a directory (read a file with fs.read)`);
  }
}

export async function* walk(start: DirHandle, context: WalkContext): AsyncGenerator<WalkedEntry> {
  yield* walkLevel(start, '', [], 0, context);
}

async function* walkLevel(
  dir: DirHandle,
  base: string,
  levels: ReturnType<EntryFilter['level']>[],
  depth: number,
  context: WalkContext,
): AsyncGenerator<WalkedEntry> {
  const names = (await context.calls.names(dir)).sort();
  const level = context.filter.usesIgnoreFiles ? context.filter.level(base, await ignoreTexts(dir, names)) : null;
  const active = (level ? [...levels, level] : levels).filter((l) => l !== null);
  for (const name of names) {
    if (context.signal?.aborted) return;
    const relative = base ? `${base}/${name}` : name;
    if (context.wanted && !context.wanted(relative)) continue;
    if (!context.budget()) return;
    await letOthersRun();
    const stat = await context.calls.lstat(dir.entry(name));
    if (!stat || !(stat.isFile() || stat.isDirectory())) continue; // links are never followed
    const isDirectory = stat.isDirectory();
    if (context.filter.skips(relative, name, isDirectory, active)) continue;
    const real = nodePath.join(dir.real, name);
    if (!allowed(context, real)) continue;
    const entry: WalkedEntry = { relative, real, type: isDirectory ? 'directory' : 'file', stat, dir, name };
    yield entry;
    if (!isDirectory) continue;
    if (depth >= MAX_WALK_DEPTH) {
      context.tooDeep = true;
      continue;
    }
    const child = await context.calls.child(dir, name);
    if (!child) continue;
    try {
      yield* walkLevel(child, relative, active, depth + 1, context);
    } finally {
      await child.close();
    }
  }
}

/** With synchronous calls, the walk gives the event loop a turn once this long has passed since its last one. */
const TURN_MS = 5;
let turnStarted = performance.now();

async function letOthersRun(): Promise<void> {
  if (performance.now() - turnStarted < TURN_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  turnStarted = performance.now();
}

function allowed(context: WalkContext, real: string): boolean {
  try {
    context.confirm(real);
    return true;
  } catch {
    return false;
  }
}

async function ignoreTexts(dir: DirHandle, names: readonly string[]): Promise<Array<[IgnoreFile, string]>> {
  const present = IGNORE_FILES.filter((file) => names.includes(file));
  return Promise.all(present.map(async (file): Promise<[IgnoreFile, string]> => [file, await readSmall(dir.entry(file))]));
}

/** An ignore file's rules: read without following a link in its place, at most 1 MiB. */
async function readSmall(path: string): Promise<string> {
  const handle = await fs.promises.open(path, READ_FLAGS).catch(() => null);
  if (!handle) return '';
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
