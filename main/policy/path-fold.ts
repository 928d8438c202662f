/**
 * Comparisons for the deny side: case and Unicode folded on every platform, because matching a
 * protected path too broadly is the safe side.
 */
import { memoize } from './memo.js';
import { splitPath, type Platform } from './path-compare.js';
import { foldName } from './secret-patterns.js';

/** Deny-side comparisons fold case everywhere: over-matching a protected path is the safe side. */
export function foldedInside(child: string, parent: string, platform: Platform): boolean {
  return startsWith(foldedSegments(child, platform), foldedSegments(parent, platform));
}

/** Folded root and segments of `child` begin with those of `parent` (it is that path or below it). */
export function startsWith(child: readonly string[], parent: readonly string[]): boolean {
  if (child.length < parent.length) return false;
  for (let i = 0; i < parent.length; i++) if (child[i] !== parent[i]) return false;
  return true;
}

/**
 * Atomic writers (the config saver, fs.write) stage `.<name>.<random>.tmp` beside the file: it
 * holds the same secrets. Both in folded segments: same folder, name starting `.<name>.`.
 */
export function isTempOf(target: readonly string[], file: readonly string[]): boolean {
  const last = file.length - 1;
  if (last < 1 || target.length !== file.length || !target[last]!.startsWith(`.${file[last]}.`)) return false;
  for (let i = 0; i < last; i++) if (target[i] !== file[i]) return false;
  return true;
}

const folders = { win32: memoize((p) => fold(p, 'win32')), posix: memoize((p) => fold(p, 'linux')) };

export function foldedSegments(p: string, platform: Platform): readonly string[] {
  return (platform === 'win32' ? folders.win32 : folders.posix)(p);
}

function fold(p: string, platform: Platform): readonly string[] {
  const { root, segments } = splitPath(p, platform);
  return Object.freeze([foldName(root), ...segments.map(foldName)]);
}

export function foldedSame(a: string, b: string, platform: Platform): boolean {
  return foldedInside(a, b, platform) && foldedInside(b, a, platform);
}
