/** Gives the C heap's free pages back to the OS (glibc's malloc_trim, on Linux), or does nothing. */
import { loadNativeAddon } from './native-addon.js';

let trim: (() => boolean) | null | undefined;

/** Whether anything was given back; false where the addon is missing. */
export function mallocTrim(): boolean {
  if (trim === undefined) trim = loadNativeAddon<{ trim(): boolean }>('malloc-trim')?.trim ?? null;
  return trim ? trim() : false;
}
