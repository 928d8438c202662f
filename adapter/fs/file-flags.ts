/** Whether a path is marked immutable or append-only (Linux: statx attributes), which no removal gets past. */
import { loadNativeAddon } from '../os/native-addon.js';

/** STATX_ATTR_IMMUTABLE and STATX_ATTR_APPEND (linux/stat.h). */
const IMMUTABLE = 0x10;
const APPEND = 0x20;

let read: ((path: string | Buffer) => number | null) | null | undefined;

/** How the path is marked against removal (not following a final link), or null: neither, or not known here (no addon, not Linux). */
export function removalBlock(path: string | Buffer): 'immutable (chattr +i)' | 'append-only (chattr +a)' | null {
  if (read === undefined) read = loadNativeAddon<{ attributes(path: string | Buffer): number | null }>('file-flags')?.attributes ?? null;
  const attributes = read?.(path) ?? 0;
  if (attributes & IMMUTABLE) return 'immutable (chattr +i)';
  if (attributes & APPEND) return 'append-only (chattr +a)';
  return null;
}
