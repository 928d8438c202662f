/**
 * Pure path rules for the filesystem policy: turning caller input into one normalized absolute
 * form, and deciding containment on whole path segments. Everything takes the platform as a
 * parameter so Windows and macOS rules are tested on any machine; nothing here touches the disk.
 */
import path from 'node:path';
import { memoize } from './memo.js';

export type Platform = NodeJS.Platform;

export type Normalized = { ok: true; path: string } | { ok: false; reason: string };

export interface SplitPath {
  /** `/` on POSIX; `C:\` or `\\server\share\` on Windows. */
  root: string;
  segments: string[];
}

/** Windows device paths are not files: CON, NUL, COM1... also with an extension (`nul.txt`). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Characters Win32 forbids in names; `:` also opens alternate data streams (`.env::$DATA`). */
const WINDOWS_BAD_CHARS = /[<>:"|?*\x00-\x1f]/;
const DRIVE_ABSOLUTE = /^[A-Za-z]:\\/;

export function pathFlavor(platform: Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** A form of a path or segment for equality under the platform's case rules. */
export function foldForCompare(text: string, platform: Platform): string {
  if (platform === 'win32') return text.toLowerCase();
  // APFS compares names case- and normalization-insensitively.
  if (platform === 'darwin') return text.toLowerCase().normalize('NFC');
  return text;
}

/** Problems with the raw input that make it unusable on every platform. */
export function inputProblem(input: unknown): string | undefined {
  if (typeof input !== 'string') return 'path must be a string';
  if (input.trim() === '') return 'path must not be empty';
  if (input.includes('\0')) return 'path must not contain NUL bytes';
  if (input.length > 32_767) return 'path is longer than 32767 characters';
  return undefined;
}

/**
 * Whether the input is relative (to be joined to the first root). On Windows, drive-relative
 * (`C:x`) and root-relative (`\x`) forms are NOT relative here: they depend on per-drive
 * working directories, so normalizeAbsolute rejects them instead of guessing.
 */
export function isRelativeInput(input: string, platform: Platform): boolean {
  if (platform === 'win32') return !/^([\\/]|[A-Za-z]:)/.test(input);
  return !input.startsWith('/');
}

/**
 * One normalized absolute form: `.`/`..` resolved lexically, duplicate and trailing
 * separators removed; on Windows forward slashes become backslashes, the drive letter is
 * upper-cased, `\\?\C:\` and `\\?\UNC\` prefixes are unwrapped, and forms that do not name
 * a plain file (device paths, drive- or root-relative paths, streams, reserved names,
 * trailing dots or spaces that Win32 silently strips) are refused.
 */
export function normalizeAbsolute(input: string, platform: Platform): Normalized {
  const problem = inputProblem(input);
  if (problem) return { ok: false, reason: problem };
  return platform === 'win32' ? normalizeWindows(input) : normalizePosix(input);
}

function normalizePosix(input: string): Normalized {
  if (!input.startsWith('/')) return { ok: false, reason: 'path must be absolute' };
  const normalized = path.posix.normalize(input);
  return { ok: true, path: normalized.length > 1 ? normalized.replace(/\/+$/, '') : normalized };
}

function normalizeWindows(input: string): Normalized {
  let p = input.replace(/\//g, '\\');
  if (p.startsWith('\\\\?\\')) {
    const rest = p.slice(4);
    if (/^[A-Za-z]:(\\|$)/.test(rest)) p = rest;
    else if (/^unc\\/i.test(rest)) p = '\\\\' + rest.slice(4);
    else return { ok: false, reason: 'a \\\\?\\ path must name a drive (\\\\?\\C:\\...) or a share (\\\\?\\UNC\\server\\share\\...)' };
  } else if (p.startsWith('\\\\.\\')) {
    return { ok: false, reason: 'device paths (\\\\.\\...) are not files' };
  }
  if (p.startsWith('\\\\')) {
    if (!/^\\\\[^\\]+\\[^\\]+/.test(p) || p.startsWith('\\\\\\')) {
      return { ok: false, reason: 'a UNC path must name a server and a share (\\\\server\\share\\...)' };
    }
  } else if (/^[A-Za-z]:/.test(p)) {
    if (!DRIVE_ABSOLUTE.test(p)) return { ok: false, reason: 'a drive path must be absolute (C:\\... rather than C:...)' };
  } else {
    return { ok: false, reason: 'path must be absolute and include the drive (C:\\...) or share (\\\\server\\share\\...)' };
  }

  const { root, segments } = splitPath(path.win32.normalize(p), 'win32');
  for (const segment of [...uncParts(root), ...segments]) {
    const reason = windowsSegmentProblem(segment);
    if (reason) return { ok: false, reason };
  }
  const driveRoot = DRIVE_ABSOLUTE.test(root) ? root[0]!.toUpperCase() + root.slice(1) : root;
  return { ok: true, path: driveRoot + segments.join('\\') };
}

function uncParts(root: string): string[] {
  return root.startsWith('\\\\') ? root.split('\\').filter(Boolean) : [];
}

function windowsSegmentProblem(segment: string): string | undefined {
  if (WINDOWS_BAD_CHARS.test(segment)) return `"${segment}" contains a character Windows does not allow in names (< > : " | ? * or a control character)`;
  if (/[. ]$/.test(segment)) return `"${segment}" ends with a dot or space, which Windows silently strips`;
  if (WINDOWS_DEVICE.test(segment.trimEnd())) return `"${segment}" is a reserved Windows device name`;
  return undefined;
}

const splitters = { win32: memoize((p) => split(p, 'win32')), posix: memoize((p) => split(p, 'linux')) };

/** Splits a normalized absolute path into its root and segments (frozen: results are shared). */
export function splitPath(p: string, platform: Platform): SplitPath {
  return (platform === 'win32' ? splitters.win32 : splitters.posix)(p);
}

function split(p: string, platform: Platform): SplitPath {
  const flavor = pathFlavor(platform);
  const root = flavor.parse(p).root;
  const segments = p
    .slice(root.length)
    .split(flavor.sep)
    .filter((s) => s !== '');
  return Object.freeze({ root, segments: Object.freeze(segments) as string[] });
}

/**
 * The segments of `child` below `parent`, or undefined when child is not parent or inside it.
 * Comparing whole segments is what makes `/data/root-evil` not inside `/data/root`. Both
 * paths must be normalizeAbsolute output for the same platform.
 */
export function relativeSegments(child: string, parent: string, platform: Platform): string[] | undefined {
  const c = splitPath(child, platform);
  const p = splitPath(parent, platform);
  // Drive letters and UNC server/share names are case-insensitive on Windows everywhere.
  if (foldForCompare(c.root, platform) !== foldForCompare(p.root, platform)) return undefined;
  if (c.segments.length < p.segments.length) return undefined;
  for (let i = 0; i < p.segments.length; i++) {
    if (foldForCompare(c.segments[i]!, platform) !== foldForCompare(p.segments[i]!, platform)) return undefined;
  }
  return c.segments.slice(p.segments.length);
}

/** True when child is parent or lies inside it (on a segment boundary). */
export function isInside(child: string, parent: string, platform: Platform): boolean {
  return relativeSegments(child, parent, platform) !== undefined;
}

export function samePath(a: string, b: string, platform: Platform): boolean {
  return relativeSegments(a, b, platform)?.length === 0;
}
