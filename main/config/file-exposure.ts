/**
 * Files holding a secret must be the owner's alone, as ssh wants of a private key: the token
 * file, and a config file that names server.token. Other users reading one could act as every
 * client of this server. (Windows keeps files private by their ACL; nothing is checked there.)
 */
import fs from 'node:fs';
import { withoutByteOrderMark } from './byte-order-mark.js';

/** Why `file` is not private, or null: group or others may read it, or another user owns it. */
export function exposure(file: string, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'win32') return null;
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  if (!stat.isFile()) return null; // not a file at all: reading it says why
  if ((stat.mode & 0o044) !== 0) return `other users can read it (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')})`;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid() && process.getuid() !== 0) return 'another user owns it';
  return null;
}

/** True when `file` exists and another user owns it (never on Windows, which has no uids). */
export function ownedByOther(file: string): boolean {
  if (typeof process.getuid !== 'function') return false;
  try {
    return fs.statSync(file).uid !== process.getuid();
  } catch {
    return false;
  }
}

/** The sentence refusing (serve) or warning about (config check) a config file that shares its token, or null. */
export function configTokenExposure(file: string | null, platform: NodeJS.Platform = process.platform): string | null {
  if (!file || !fileHoldsToken(file)) return null;
  const why = exposure(file, platform);
  if (!why) return null;
  return `the config file ${file} holds server.token and ${why}: run "chmod 600 ${file}", or remove server.token from it (the app's own token file is used then)`;
}

/** The server.token the file's JSON names (whatever the environment overrides), or null. */
export function fileToken(file: string): string | null {
  try {
    const value = JSON.parse(withoutByteOrderMark(fs.readFileSync(file, 'utf8'))) as { server?: { token?: unknown } } | null;
    return typeof value?.server?.token === 'string' && value.server.token !== '' ? value.server.token : null;
  } catch {
    return null;
  }
}

export function fileHoldsToken(file: string): boolean {
  return fileToken(file) !== null;
}

/** A warning while the server runs as root (every grant is then root's), or null. */
export function rootWarning(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  return 'the server runs as root: every folder, command and process you grant is granted with root’s rights; run it as your own user';
}
