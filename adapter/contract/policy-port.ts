/**
 * The port through which main/policy/ looks at the computer (architecture rule 9): the policy
 * decides, but never imports node:fs or child_process itself, so an adapter for another machine
 * (remote, container) answers these questions about the machine it acts on.
 *
 * For an adapter author: answer each question about the machine you act on, not the one the
 * server runs on. Failures keep the errno-style `code` (ENOENT, ELOOP, EACCES...) the policy's
 * messages use.
 */
import type { EntryType } from './files.js';
import type { GitProgram, RepositoryFacts } from './git.js';
import type { FoundExecutable } from './processes.js';
import type { SandboxSupport } from './sandbox.js';

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

/** The process an id names (a thread id names the process it belongs to). */
export interface ProcessIdentity {
  /** The process: the thread-group leader on Linux. */
  pid: number;
  ppid: number;
  /** A kernel thread (Linux) or the OS kernel's own process (macOS pid 0, Windows 0 and 4). */
  kernel: boolean;
  /** The owner's (effective) uid where the OS reports one cheaply, else null. */
  uid: number | null;
  /** The owner's user name where that is what the OS reports (macOS), else null. */
  user: string | null;
}

/** This server's own process, as the OS sees it. */
export interface OwnProcess {
  pid: number;
  /** The MCP host (stdio), the tray app's launcher, or the terminal that started the server. */
  ppid: number;
  uid: number | null;
  user: string | null;
}

/** What PolicyPort.holdPlace keeps hold of. */
export interface PlaceHold {
  /** Its present path, or null once it was removed. */
  where(): string | null;
  release(): void;
}

export interface PolicyPort {
  readonly platform: NodeJS.Platform;
  /** realpath(3): every symlink followed; throws with `code` ENOENT/ENOTDIR when missing. */
  realpath(path: string): Promise<string>;
  /** lstat(2) facts of the entry itself, or null when nothing is there (ENOENT/ENOTDIR). */
  lstat(path: string): Promise<EntryFacts | null>;
  /**
   * For each path, where it really is (symlinks followed) and what is there, or null when nothing
   * is: one call for the sandbox's many candidate paths, most of which do not exist.
   */
  locateAll(paths: readonly string[]): Promise<Array<{ real: string; type: EntryType } | null>>;
  /** The names in a directory (no `.` or `..`), or null when it cannot be listed (or holds more than `limit`, when given). */
  listNames(path: string, limit?: number): Promise<string[] | null>;
  /**
   * The folders (not links to folders) among a directory's first `limit` names, how many names
   * were read, and whether a `.git` file was among them (a linked worktree's, a submodule's, or
   * git init --separate-git-dir's, which names a git folder elsewhere); null when it cannot be listed.
   */
  listFolders(path: string, limit: number): Promise<{ folders: string[]; read: number; gitFile: boolean } | null>;
  /**
   * The first `maxBytes` of a regular file as text (links followed, as git follows them to a .git
   * file or a commondir; a FIFO or device not waited on); null when it is not one or cannot be read.
   */
  readStart(path: string, maxBytes: number): Promise<string | null>;
  /**
   * Keeps hold of what is at `path` (a folder or file, not followed), so where it is can be asked
   * later, however it is renamed (on Linux an O_PATH descriptor, which the kernel names by its
   * present path); null where the OS gives no such hold, or nothing is there.
   */
  holdPlace(path: string): PlaceHold | null;
  /** which(1) on `searchPath`, as ProcessOps.findExecutable. */
  findExecutable(name: string, searchPath: string | undefined): Promise<FoundExecutable | null>;
  /**
   * The short environment children start from (PATH, HOME, locale, temp dirs, the session, OS
   * essentials): never the server's whole environment.
   */
  baseEnvironment(): Readonly<Record<string, string>>;
  /** What process `id` names, or null when there is none this user can see. */
  processIdentity(id: number): Promise<ProcessIdentity | null>;
  /** The server's own process and its parent. */
  ownProcess(): OwnProcess;
  /** The sandbox this computer can give commands (bubblewrap, Seatbelt or none), probed once. */
  sandboxSupport(): SandboxSupport;
  /**
   * The repository holding `dir`, as the git the policy chose reads it (folders, settings by
   * scope, hooks, borrowed objects, with `remotes` the remotes' URLs), or null outside any.
   * Asking runs nothing a repository's settings name.
   */
  gitRepository(dir: string, git: GitProgram, options?: { remotes?: boolean }): Promise<RepositoryFacts | null>;
}
