/**
 * The port through which main/policy/ looks at the computer (architecture rule 9): the policy
 * decides, but never imports node:fs or child_process itself, so an adapter for another machine
 * (remote, container) answers these questions about the machine it acts on.
 *
 * Failures keep the errno-style `code` (ENOENT, ELOOP, EACCES...) the policy's messages use.
 */
import type { EntryType } from './fs/file-ops.js';

export interface EntryFacts {
  type: EntryType;
  /** Device and inode: identity of the object, for comparisons after an open. */
  dev: number;
  ino: number;
  /** Hard links to this inode (1 for an ordinary file). */
  nlink: number;
  /** st_mode including the type and setuid/setgid bits. */
  mode: number;
  uid: number;
  size: number;
}

export interface PolicyPort {
  readonly platform: NodeJS.Platform;
  /** realpath(3): every symlink followed; throws with `code` ENOENT/ENOTDIR when missing. */
  realpath(path: string): Promise<string>;
  /** lstat(2) facts of the entry itself, or null when nothing is there (ENOENT/ENOTDIR). */
  lstat(path: string): Promise<EntryFacts | null>;
  /** which(1) on `searchPath` (see ProcessOps.findExecutable). */
  findExecutable(name: string, searchPath: string | undefined): Promise<{ found: string; real: string } | null>;
  /** The environment children are derived from (never handed over whole). */
  baseEnvironment(): Readonly<Record<string, string | undefined>>;
}
