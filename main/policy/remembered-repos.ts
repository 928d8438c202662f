/**
 * The git folders the sandbox's plans have found in writable roots (sandbox-repos.ts), kept for
 * the server's life and covered before any found later: a command that fills a root with folders
 * or with repositories of its own afterwards does not push them out of a plan. What no longer
 * exists is forgotten when a plan looks, but not while the fs tools move something (a plan made
 * in the middle would see neither place, and forget both).
 */
import nodePath from 'node:path';

const posix = nodePath.posix;
/** Git folders remembered, over all roots. */
export const MAX_REPOS_REMEMBERED = 512;

export class RememberedRepositories {
  private readonly folders = new Set<string>();
  /** fs.move calls under way. */
  private moves = 0;

  /** In the order they were found. */
  list(): string[] {
    return [...this.folders];
  }

  add(folder: string): void {
    if (this.folders.size < MAX_REPOS_REMEMBERED) this.folders.add(folder);
  }

  /** `folder` was not there when a plan looked. */
  forget(folder: string): void {
    if (this.moves === 0) this.folders.delete(folder);
  }

  /**
   * Runs an fs.move of `from` to `to` (real paths, outside any sandbox): the git folders
   * remembered in it get their new places right after their old ones, in the same turn, so a
   * repository moved deeper than the walk looks (to have a command plant a hook there and move it
   * back) stays covered. Whichever place is empty afterwards is forgotten by the next plan.
   */
  async move<T>(from: string, to: string, run: () => Promise<T>): Promise<T> {
    const inside = (folder: string) => folder === from || folder.startsWith(`${from}/`);
    const next = [...this.folders].flatMap((folder) => (inside(folder) ? [folder, posix.join(to, posix.relative(from, folder))] : [folder]));
    this.folders.clear();
    for (const folder of next) this.folders.add(folder);
    this.moves += 1;
    try {
      return await run();
    } finally {
      this.moves -= 1;
    }
  }
}
