/**
 * Where a path really is, before any rule is applied: an existing path is realpath'd whole; for
 * one that does not exist yet, the nearest existing ancestor is, and the missing names are added.
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { normalizeAbsolute, pathFlavor, type Platform } from './path-compare.js';

export type Located = { ok: true; path: string; exists: boolean } | { ok: false; reason: string; invalid?: boolean };

export const NOT_FOUND = new Set(['ENOENT', 'ENOTDIR']);

/**
 * The real path to operate on. An existing path is realpath'd whole. Otherwise the nearest
 * existing ancestor is realpath'd and the missing segments appended; anything on the way
 * that exists but does not resolve (a dangling symlink, a loop) is refused, because where
 * it would lead cannot be checked.
 */
export async function locatePath(port: Pick<PolicyPort, 'realpath' | 'lstat'>, platform: Platform, lexical: string): Promise<Located> {
  const flavor = pathFlavor(platform);
  try {
    return located(platform, await port.realpath(lexical), [], true);
  } catch (error) {
    if (!NOT_FOUND.has(errorCode(error))) return unresolvable(errorCode(error));
  }
  const missing: string[] = [];
  let current = lexical;
  for (;;) {
    let present;
    try {
      present = await port.lstat(current);
    } catch (error) {
      return unresolvable(errorCode(error));
    }
    if (present === null) {
      const parent = flavor.dirname(current);
      if (parent === current) return { ok: false, reason: 'could not be resolved: no part of it exists' };
      missing.unshift(flavor.basename(current));
      current = parent;
      continue;
    }
    // `current` is there; if it does not resolve, it is a link to nowhere.
    try {
      return located(platform, await port.realpath(current), missing, missing.length === 0);
    } catch (error) {
      const code = errorCode(error);
      if (NOT_FOUND.has(code))
        return { ok: false, reason: 'is, or passes through, a symlink whose target does not exist, so where it leads cannot be checked' };
      return unresolvable(code);
    }
  }
}

function located(platform: Platform, real: string, missing: string[], exists: boolean): Located {
  const normalized = normalizeAbsolute(real, platform);
  if (!normalized.ok) return { ok: false, reason: 'resolves to a path that cannot be checked' };
  return { ok: true, path: missing.length > 0 ? pathFlavor(platform).join(normalized.path, ...missing) : normalized.path, exists };
}

function unresolvable(code: string): Located {
  if (code === 'ELOOP') return { ok: false, reason: 'could not be resolved: too many levels of symlinks' };
  if (code === 'ENAMETOOLONG') return { ok: false, reason: 'is too long for this filesystem', invalid: true };
  if (code === 'EACCES' || code === 'EPERM') return { ok: false, reason: 'could not be resolved: permission denied' };
  return { ok: false, reason: `could not be resolved (${code || 'error'})` };
}

export function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : '';
}
