/**
 * What keeping git's code read-only may cost one command's sandbox (sandbox-git.ts). Each entry is
 * a bubblewrap mount, and so is each folder pinned between it and its root
 * (sandbox-layers.ts, pinAncestors); bubblewrap's cost per mount grows with the mounts before it
 * (bench/README.md, scenario 5), and its arguments must fit the OS's limit (E2BIG). A command can
 * make a repository, the git folder a .git file names, or a submodule's, as deep and as
 * long-named as it likes, so each repository is taken whole or not at all, in the plan's order,
 * while they fit.
 */
import nodePath from 'node:path';
import { inside } from './sandbox-layers.js';

const posix = nodePath.posix;
/** Mounts for git's code in one plan: 32 repositories a few folders down take about 150. */
export const MAX_GIT_MOUNTS = 256;
/** Bytes of bubblewrap arguments for them (two paths a mount), far below the OS's 2 MiB for a program's arguments and environment. */
export const MAX_GIT_ARGUMENT_BYTES = 256 * 1024;
/**
 * Mounts for one repository (with the .git file naming it): one three folders down takes about
 * ten sealed, a dozen submodules fit whole. A repository that does not fit even sealed is left
 * out: one a command made deep (or long-named) would otherwise spend the plan's budget before the
 * owner's repositories had theirs, and make every command slow.
 */
export const MAX_MOUNTS_PER_REPOSITORY = 48;
/** The same in argument bytes: 48 paths of a few hundred bytes; a chain of long names would take the plan's whole budget in a few mounts. */
export const MAX_ARGUMENT_BYTES_PER_REPOSITORY = MAX_GIT_ARGUMENT_BYTES / 8;
/** Mounts for a .git file alone (itself, its folder and those up to the root): one a few folders down takes five. */
export const MAX_MOUNTS_PER_GIT_FILE = 12;
/**
 * What repositories leave for .git files, which come after them all: a command's own
 * repositories (32, each up to 48 mounts) could otherwise spend everything and leave the owner's
 * worktrees' and submodules' .git files open to being pointed elsewhere.
 */
export const KEPT_FOR_GIT_FILES = { mounts: 64, bytes: MAX_GIT_ARGUMENT_BYTES / 4 };

export class GitMountBudget {
  private mounts = 0;
  private bytes = 0;
  private readonly counted = new Set<string>();

  /**
   * Takes the entries of one repository (at most `limit` mounts), each under its writable root,
   * with the folders up to that root, leaving `kept` of the plan's budget untaken; false, and
   * nothing taken, when they do not fit.
   */
  take(entries: ReadonlyArray<{ root: string; paths: readonly string[] }>, limit = MAX_MOUNTS_PER_REPOSITORY, kept = { mounts: 0, bytes: 0 }): boolean {
    const fresh = new Set<string>();
    let bytes = 0;
    for (const { root, paths } of entries)
      for (const path of paths)
        for (let p = path; p !== root && inside(p, root) && !this.counted.has(p) && !fresh.has(p); p = posix.dirname(p)) {
          fresh.add(p);
          bytes += 2 * Buffer.byteLength(p) + 16;
          if (fresh.size > limit || bytes > MAX_ARGUMENT_BYTES_PER_REPOSITORY) return false;
          if (this.mounts + fresh.size > MAX_GIT_MOUNTS - kept.mounts || this.bytes + bytes > MAX_GIT_ARGUMENT_BYTES - kept.bytes) return false;
        }
    this.mounts += fresh.size;
    this.bytes += bytes;
    for (const p of fresh) this.counted.add(p);
    return true;
  }
}
