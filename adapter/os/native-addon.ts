/**
 * Finds and loads one of the Linux addons build/native.mjs compiles into out/native/, and finds
 * the programs it compiles there. Not Linux, not built, or built for another architecture or C
 * library: null, and the caller does without (each addon only makes something cheaper that works
 * without it; where the sandbox guard is missing, docs/SECURITY.md says what stays open).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Where the build puts the addons, from where this module runs: the CLI bundle's chunks (or its entry) and tsc's out/adapter/os, or the sources. */
const PLACES = ['../../native', '../native', '../../out/native'];

/** The built addon's path, if there is one where this module runs. */
export function nativeAddonFile(name: string): string | undefined {
  return nativeBuiltFile(`${name}.node`);
}

/** A file the native build made (an addon, or a program such as sandbox-guard), if there is one where this module runs. */
export function nativeBuiltFile(file: string): string | undefined {
  return PLACES.map((place) => path.resolve(import.meta.dirname, place, file)).find((found) => fs.existsSync(found));
}

export function loadNativeAddon<T>(name: string): T | null {
  const file = process.platform === 'linux' ? nativeAddonFile(name) : undefined;
  if (!file) return null;
  try {
    return createRequire(import.meta.url)(file) as T;
  } catch {
    return null;
  }
}
