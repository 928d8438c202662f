/**
 * The git folders and `.git` files the sandbox's plans have found in writable roots
 * (sandbox-repos.ts), kept for the server's life and covered before any found later: a command
 * that fills a root with folders or with repositories of its own afterwards does not push them
 * out of a plan. Each is held (PolicyPort.holdPlace), so it is listed where it is now: a program
 * the model started earlier that renames a folder above one back and forth cannot have a plan
 * miss it. What no longer exists is forgotten when a plan looks, but not while the fs tools move
 * something (a plan made in the middle would see neither place, and forget both).
 */
import nodePath from 'node:path';
import type { PlaceHold } from '../../adapter/contract/policy-port.js';
import { inside } from './sandbox-layers.js';

const posix = nodePath.posix;
/** Places remembered, over all roots (while moves are under way, also the new places of those moved). */
export const MAX_REPOS_REMEMBERED = 512;
/** Holds kept open after they were merged (two on one repository: the walk found it again under its new name). */
const MAX_RETIRED = 64;

export class RememberedRepositories {
  /** Each place with its hold, in the order they were found. */
  private places = new Map<string, PlaceHold | null>();
  /** fs.move calls under way. */
  private moves = 0;
  /** Holds merged into another's place, released only later: a plan under way may still be asking one. */
  private readonly retired: PlaceHold[] = [];

  constructor(private readonly hold: (place: string) => PlaceHold | null = () => null) {}

  /** In the order they were found, each where it is now. */
  list(): string[] {
    return this.held().map(([place]) => place);
  }

  /**
   * The same, each with its hold: a plan asks that hold again where one went (gitCode), whatever
   * another plan lists meanwhile (which may give the place another key).
   */
  held(): Array<[string, PlaceHold | null]> {
    const now = new Map<string, PlaceHold | null>();
    for (const [place, hold] of this.places) {
      const at = hold?.where() ?? place;
      // One followed to where another is already listed (an fs.move's new place) is that one.
      if (!now.has(at)) now.set(at, hold);
      else if (hold && !now.get(at)) now.set(at, hold);
      else if (hold) this.retire(hold);
    }
    this.places = now;
    return [...now];
  }

  add(place: string): void {
    if (this.places.size < MAX_REPOS_REMEMBERED && !this.places.has(place)) this.places.set(place, this.hold(place));
  }

  /** `place` was not there when a plan looked; one whose hold still finds it (a program is renaming a folder above it) is kept. */
  forget(place: string): void {
    const hold = this.places.get(place);
    if (this.moves > 0 || (hold && hold.where() !== null)) return;
    hold?.release();
    this.places.delete(place);
  }

  private retire(hold: PlaceHold): void {
    this.retired.push(hold);
    if (this.retired.length > MAX_RETIRED) this.retired.shift()!.release();
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
    const next = new Map<string, PlaceHold | null>();
    for (const [place, hold] of this.places) {
      next.set(place, hold);
      const moved = inside(place, from) ? posix.join(to, posix.relative(from, place)) : null;
      if (moved !== null && !next.has(moved)) next.set(moved, null);
    }
    this.places = next;
    this.moves += 1;
    try {
      return await run();
    } finally {
      this.moves -= 1;
    }
  }
}
