/**
 * Deny patterns written through a link. An absolute pattern names folders as the owner spells
 * them (`/home/me/work/private/**`), while a tool's path is judged where it really is: with
 * `work` a link to `/data/work`, the real path `/data/work/private/a` would not match it. So each
 * anchored pattern whose literal folders (those before its first glob) resolve somewhere else is
 * also kept spelled from there; so is a pattern whose folders after its first wildcard, up to a
 * `**`, pass through a link (pattern-places.ts). They are resolved before the first check and
 * again at most once a second, so a link made later is followed. A place a pattern once resolved to stays denied
 * after its link is retargeted (a command could retarget a link in a writable root to uncover
 * it), as the command sandbox keeps hiding what it hid. (A root reached through a link is also
 * matched in its own spelling: RootList.spelledThrough.)
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { pathFlavor, splitPath, type Platform } from './path-compare.js';
import { locatePath } from './path-locate.js';
import { MAX_LISTED, walkPattern } from './pattern-places.js';
import { foldName, rebased, type SecretPattern } from './secret-patterns.js';

const RESOLVE_EVERY_MS = 1000;
/** Places one pattern's literal folders are kept spelled from, at most (its first ones stay: retargeting a link again and again pushes none out). */
const MAX_PLACES = 8;
/**
 * Places one pattern is kept spelled from through links its wildcards led to, and places it names
 * whole found that way, at most (each bound apart). More than MAX_PLACES: a wildcard names many
 * folders and each may be a link (`~/*\/private/**` with every project linked from a data
 * disk), where literal folders name one place. Still bounded: each place is one more pattern
 * every check runs through. A command that can make links where a wildcard looks could fill it
 * with decoys, so the places found first stay, as MAX_PLACES's do: a link there before it ran
 * stays followed.
 */
const MAX_LINKED = 64;

/** What one configured pattern was found to name elsewhere so far; nothing is forgotten. */
interface Places {
  /** By real path: the pattern spelled from where its literal folders are. */
  literal: Map<string, SecretPattern>;
  /** By part and real path: the pattern spelled from where a link after its first wildcard leads. */
  linked: Map<string, SecretPattern>;
  /** Places it names whole reached through such a link. */
  whole: Set<string>;
}

export class LinkedPatterns {
  /** The patterns as configured, then each anchored one spelled from where its folders really are. */
  current: readonly SecretPattern[];
  private resolvedAt = -Infinity;
  /** Each configured pattern's places found so far. */
  private readonly places = new Map<SecretPattern, Places>();
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
        const known = this.places.get(pattern) ?? { literal: new Map(), linked: new Map(), whole: new Set<string>() };
        this.places.set(pattern, known);
        const reals = await this.realPlaces(pattern.literal.path);
        for (const real of reals) {
          // The spelling as written needs no second pattern; another case of it is kept all the same (the tools match it already, the command sandbox hides it: wholePlaces).
          if (real === pattern.literal.path || known.literal.has(real) || known.literal.size === MAX_PLACES) continue;
          known.literal.set(real, rebased(pattern, real, this.platform));
          added = true;
        }
        if (await this.walk(pattern, [...new Set([...reals, ...known.literal.keys()])], known)) added = true;
      }),
    );
    if (added) this.current = [...this.configured, ...[...this.places.values()].flatMap((known) => [...known.literal.values(), ...known.linked.values()])];
  }

  /** Follows the folders after the first wildcard from where the literal ones really are (and were: a retargeted link's old place); whether it found a new place. */
  private async walk(pattern: SecretPattern, reals: string[], known: Places): Promise<boolean> {
    const port = this.port;
    const listNames = port.listNames?.bind(port);
    if (!listNames) return false;
    const starts = reals.map((real) => ({ real, throughLink: real !== pattern.literal?.path }));
    const walked = await walkPattern({ realpath: (p) => port.realpath(p), lstat: (p) => port.lstat(p), listNames }, this.platform, pattern, starts);
    let added = false;
    for (const { real, from } of walked.links) {
      const key = `${from}:${real}`;
      if (known.linked.has(key) || known.linked.size === MAX_LINKED) continue;
      known.linked.set(key, rebased(pattern, real, this.platform, from));
      added = true;
    }
    for (const real of walked.whole) if (known.whole.size < MAX_LINKED) known.whole.add(real);
    return added;
  }

  /** Done when a resolution under way is (the command sandbox waits for it: it plans seldom, and hides what it finds). */
  async settled(): Promise<void> {
    this.refresh();
    await this.resolving;
  }

  /**
   * The real places of the patterns that name one place whole (nothing, or only `**`, after
   * their literal folders), and those their wildcards led to through a link (`~/*\/private`
   * with one `private` a link).
   */
  wholePlaces(): string[] {
    const places = [...this.places].flatMap(([pattern, known]) => {
      const rest = pattern.parts.slice(pattern.literal?.parts ?? 0);
      return [...(rest.length === 0 || (rest.length === 1 && rest[0] === '**') ? known.literal.keys() : []), ...known.whole];
    });
    return [...new Set(places)];
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
