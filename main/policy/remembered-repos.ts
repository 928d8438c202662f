/**
 * The git folders and `.git` files the sandbox's plans have found in writable roots
 * (sandbox-repos.ts), kept for the server's life and covered before any found later: a command
 * that fills a root with folders or with repositories of its own afterwards does not push them
 * out of a plan. What no longer exists is forgotten when a plan looks, but not while the fs tools
 * move something (a plan made in the middle would see neither place, and forget both).
 */
import nodePath from 'node:path';
import { inside } from './sandbox-layers.js';

const posix = nodePath.posix;
/** Places remembered, over all roots (while moves are under way, also the new places of those moved). */
export const MAX_REPOS_REMEMBERED = 512;

export class RememberedRepositories {
  private readonly places = new Set<string>();
  /** fs.move calls under way. */
  private moves = 0;

  /** In the order they were found. */
  list(): string[] {
    return [...this.places];
  }

  add(place: string): void {
    if (this.places.size < MAX_REPOS_REMEMBERED) this.places.add(place);
  }

  /** `place` was not there when a plan looked. */
  forget(place: string): void {
    if (this.moves === 0) this.places.delete(place);
  }

  /**
   * Runs an fs.move of `from` to `to` (real paths, outside any sandbox): the places remembered in
   * it get their new places right after their old ones, in the same turn, so a repository moved
   * deeper than the walk looks (to have a command plant a hook there and move it back) stays
   * covered. Whichever place is empty afterwards is forgotten by the next plan, which brings the
   * count back under the bound; the new places are kept past it meanwhile, since dropping one is
   * what the move must not do.
   */
  async move<T>(from: string, to: string, run: () => Promise<T>): Promise<T> {
    const next = [...this.places].flatMap((place) => (inside(place, from) ? [place, posix.join(to, posix.relative(from, place))] : [place]));
    this.places.clear();
    for (const place of next) this.places.add(place);
    this.moves += 1;
    try {
      return await run();
    } finally {
      this.moves -= 1;
    }
  }
}
