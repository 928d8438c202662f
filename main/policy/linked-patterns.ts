/**
 * Deny patterns written through a link. An absolute pattern names folders as the owner spells
 * them (`/home/me/work/private/**`), while a tool's path is judged where it really is: with
 * `work` a link to `/data/work`, the real path `/data/work/private/a` would not match it. So each
 * anchored pattern whose literal folders (those before its first glob) resolve somewhere else is
 * also kept spelled from there. They are resolved before the first check and again at most once
 * a second, so a link made later is followed. A place a pattern once resolved to stays denied
 * after its link is retargeted (a command could retarget a link in a writable root to uncover
 * it), as the command sandbox keeps hiding what it hid. (A root reached through a link is also
 * matched in its own spelling: RootList.spelledThrough.)
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { pathFlavor, splitPath, type Platform } from './path-compare.js';
import { locatePath } from './path-locate.js';
import { foldName, rebased, type SecretPattern } from './secret-patterns.js';

const RESOLVE_EVERY_MS = 1000;
/** A folder with more names than this is not looked through for another case of a name (a command could fill one to slow every check). */
const MAX_LISTED = 4096;
/** Places one pattern is kept spelled from, at most (its first ones stay: retargeting a link again and again pushes none out). */
const MAX_PLACES = 8;

export class LinkedPatterns {
  /** The patterns as configured, then each anchored one spelled from where its folders really are. */
  current: readonly SecretPattern[];
  private resolvedAt = -Infinity;
  /** Each configured pattern's places found so far, by real path: the pattern spelled from each. */
  private readonly places = new Map<SecretPattern, Map<string, SecretPattern>>();
  private resolving: Promise<void> | undefined;

  constructor(
    private readonly configured: readonly SecretPattern[],
    private readonly port: Pick<PolicyPort, 'realpath' | 'lstat'> & Partial<Pick<PolicyPort, 'listNames'>>,
    private readonly platform: Platform,
  ) {
    this.current = configured;
  }

  /**
   * Resolves the literal folders again when a second has passed. Only the first resolution is
   * waited for (no check runs before it); later ones go on behind the checks, which use what the
   * last one found, so a slow folder slows no check.
   */
  refresh(): Promise<void> | undefined {
    if (this.resolving) return this.resolvedAt === -Infinity ? this.resolving : undefined;
    if (Date.now() - this.resolvedAt < RESOLVE_EVERY_MS || !this.configured.some((p) => p.literal)) return undefined;
    const first = this.resolvedAt === -Infinity;
    this.resolving = this.resolve()
      .catch(() => {})
      .finally(() => {
        this.resolvedAt = Date.now();
        this.resolving = undefined;
      });
    return first ? this.resolving : undefined;
  }

  private async resolve(): Promise<void> {
    let added = false;
    await Promise.all(
      this.configured.map(async (pattern) => {
        if (!pattern.literal) return;
        const known = this.places.get(pattern) ?? new Map<string, SecretPattern>();
        this.places.set(pattern, known);
        for (const real of await this.realPlaces(pattern.literal.path)) {
          // The spelling as written needs no second pattern; another case of it is kept all the same (the tools match it already, the command sandbox hides it: wholePlaces).
          if (real === pattern.literal.path || known.has(real) || known.size === MAX_PLACES) continue;
          known.set(real, rebased(pattern, real, this.platform));
          added = true;
        }
      }),
    );
    if (added) this.current = [...this.configured, ...[...this.places.values()].flatMap((known) => [...known.values()])];
  }

  /** Done when a resolution under way is (the command sandbox waits for it: it plans seldom, and hides what it finds). */
  async settled(): Promise<void> {
    this.refresh();
    await this.resolving;
  }

  /** The real places of the patterns that name one place whole (nothing, or only `**`, after their literal folders). */
  wholePlaces(): string[] {
    return [...this.places].flatMap(([pattern, known]) => {
      const rest = pattern.parts.slice(pattern.literal?.parts ?? 0);
      return rest.length === 0 || (rest.length === 1 && rest[0] === '**') ? [...known.keys()] : [];
    });
  }

  /**
   * Where the literal folders really are. Patterns ignore case, the disk may not: where the
   * spelling as written does not exist, each folder whose name matches it as a pattern would is
   * followed, level by level (`Work` finds the link `work`). A folder that cannot be resolved
   * (unreadable) is matched as written only.
   */
  private async realPlaces(literal: string): Promise<string[]> {
    const located = await locatePath(this.port, this.platform, literal);
    const listNames = this.port.listNames?.bind(this.port);
    if ((located.ok && located.exists) || !listNames) return located.ok ? [located.path] : [];
    const flavor = pathFlavor(this.platform);
    const { root, segments } = splitPath(literal, this.platform);
    let found = [root];
    for (const [i, segment] of segments.entries()) {
      const next: string[] = [];
      for (const dir of found) {
        const names = (await listNames(dir, MAX_LISTED)) ?? [];
        next.push(...names.filter((name) => foldName(name) === foldName(segment)).map((name) => flavor.join(dir, name)));
      }
      // Nothing further exists: the rest as written below what does.
      if (next.length === 0) {
        found = found.map((dir) => flavor.join(dir, ...segments.slice(i)));
        break;
      }
      found = next.slice(0, MAX_PLACES);
    }
    const reals = await Promise.all(found.map((place) => locatePath(this.port, this.platform, place)));
    return [...(located.ok ? [located.path] : []), ...reals.flatMap((real) => (real.ok ? [real.path] : []))];
  }
}
