/**
 * which(1) for the command policy: resolves a command name to the executable file the OS would
 * start. Deliberately stricter than a shell: empty and relative PATH entries (which mean "the
 * current directory") are ignored, and the current directory is never searched implicitly,
 * also on Windows. Only a name with a path separator is resolved against `cwd`.
 *
 * The checks are synchronous on purpose: a stat(2) per PATH entry is microseconds, while a
 * thread-pool hop each (a dozen for a PATH of nine folders) cost more than the command itself.
 */
import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FoundExecutable } from '../contract/processes.js';

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

export async function findExecutable(
  name: string,
  searchPath: string | undefined,
  cwd: string = process.cwd(),
  platform: NodeJS.Platform = process.platform,
): Promise<FoundExecutable | null> {
  const pathext = process.env.PATHEXT ?? DEFAULT_PATHEXT;
  for (const candidate of knownCandidates(name, searchPath, cwd, platform, pathext)) {
    if (!isExecutableFile(candidate, platform)) continue;
    try {
      return { found: candidate, real: realpathSync.native(candidate), links: platform === 'win32' ? [] : linksOnTheWay(candidate) };
    } catch {
      // Removed between the check and realpath: keep looking, as the OS would.
    }
  }
  return null;
}

/** Hops followed before giving up, as the kernel does (ELOOP). */
const MAX_LINK_HOPS = 40;

/** realpath done by hand (POSIX), keeping where each link it follows lies; at most MAX_LINK_HOPS links. */
function linksOnTheWay(file: string): string[] {
  const links: string[] = [];
  let resolved = '/';
  const pending = file.split('/').filter(Boolean);
  while (pending.length > 0 && links.length < MAX_LINK_HOPS) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      resolved = path.posix.dirname(resolved);
      continue;
    }
    const next = path.posix.join(resolved, name);
    if (!lstatSync(next).isSymbolicLink()) {
      resolved = next;
      continue;
    }
    links.push(next);
    const target = readlinkSync(next);
    if (target.startsWith('/')) resolved = '/';
    pending.unshift(...target.split('/').filter(Boolean));
  }
  return links;
}

const CANDIDATE_CACHE_LIMIT = 256;
const candidateCache = new Map<string, readonly string[]>();

/**
 * executableCandidates, remembered: it is pure, and building the list (split PATH, join each
 * folder) was a sixth of what a command allocated, for the same few names every time.
 */
function knownCandidates(name: string, searchPath: string | undefined, cwd: string, platform: NodeJS.Platform, pathext: string): readonly string[] {
  const key = [platform, pathext, searchPath ?? '', cwd, name].join('\0');
  let candidates = candidateCache.get(key);
  if (candidates === undefined) {
    if (candidateCache.size >= CANDIDATE_CACHE_LIMIT) candidateCache.clear();
    candidates = Object.freeze(executableCandidates(name, searchPath, cwd, platform, pathext));
    candidateCache.set(key, candidates);
  }
  return candidates;
}

/**
 * The paths to try, in order (pure: no filesystem access). `searchPath` undefined or empty
 * means no search at all: a bare name then resolves to nothing.
 */
export function executableCandidates(
  name: string,
  searchPath: string | undefined,
  cwd: string,
  platform: NodeJS.Platform,
  pathext: string = DEFAULT_PATHEXT,
): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (name === '' || name.includes('\0')) return [];
  const suffixes = platform === 'win32' ? windowsSuffixes(name, pathext) : [''];
  const hasSeparator = name.includes('/') || (platform === 'win32' && name.includes('\\'));
  if (p.isAbsolute(name) || hasSeparator) {
    const file = p.resolve(cwd, name);
    return suffixes.map((suffix) => file + suffix);
  }
  const dirs = (searchPath ?? '')
    .split(p.delimiter)
    .map((dir) => (platform === 'win32' ? dir.trim().replace(/^"(.*)"$/, '$1') : dir))
    .filter((dir) => dir !== '' && p.isAbsolute(dir));
  return dirs.flatMap((dir) => suffixes.map((suffix) => p.join(dir, name + suffix)));
}

/** A name that already ends in a PATHEXT extension is tried as is; otherwise each extension is appended. */
function windowsSuffixes(name: string, pathext: string): string[] {
  const listed = extensionList(pathext);
  const extensions = listed.length > 0 ? listed : extensionList(DEFAULT_PATHEXT);
  return extensions.includes(path.win32.extname(name).toLowerCase()) ? [''] : extensions;
}

function extensionList(pathext: string): string[] {
  return pathext
    .split(';')
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => /^\.[^.\\/]+$/.test(ext));
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    // throwIfNoEntry: most PATH entries do not have the program, and a miss should cost no exception.
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    // Windows has no execute bit: the extension (PATHEXT) decides.
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
