/**
 * Deny patterns written through a link after their first wildcard. linked-patterns.ts follows
 * the literal folders, those before it; a link a wildcard matches, or one at a name after a
 * wildcard, leads elsewhere too: with `/home/me/*\/private/**` denied and `/home/me/proj` a
 * link to `/data/proj`, the real path `/data/proj/private/key` matches no spelling of it. This
 * walks the segments after the literal folders, level by level, listing each folder and keeping
 * the names a segment matches (as patterns match them), and reports each link among them with
 * where it leads. It is a module of its own because its bounds are: a wildcard lists folders a
 * command may have filled, where the literal folders name one place.
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { pathFlavor, type Platform } from './path-compare.js';
import { locatePath } from './path-locate.js';
import { foldName, type SecretPattern } from './secret-patterns.js';

/** A folder with more names than this is not listed (a command could fill one to slow every resolution). */
export const MAX_LISTED = 4096;

/**
 * Names one pattern's walk looks at in one resolution: once past this, no further folder is
 * listed until the next one. Each name a segment matches costs an lstat(2) of microseconds, so
 * a walk costs some tens of milliseconds at worst, at most once a second behind the checks.
 */
const MAX_LOOKED_AT = 8192;

/** A folder the walk stands in: its real path, and whether a link (or another case) on the way from the pattern's spelling led there. */
export interface WalkedFolder {
  real: string;
  throughLink: boolean;
}

export interface Walked {
  /** Each link a segment matched, in the order found: where it leads, and from which part the pattern goes on there (rebased's `from`). */
  links: Array<{ real: string; from: number }>;
  /** Real places the pattern names whole (nothing, or only `**`, after its last segment) reached through a link: the command sandbox hides them. */
  whole: string[];
}

type Port = Pick<PolicyPort, 'realpath' | 'lstat' | 'listNames'>;

/**
 * Walks the pattern's parts after its literal folders from `starts` (where those really are),
 * while each is one segment (a name, `*`, `?`, a class: a part that is not `**`), up to its
 * first `**` or its end: no deeper than the pattern is long, so a link loop ends there (or in
 * realpath's ELOOP, which leaves that link out). Names come from listings, so never `..`.
 */
export async function walkPattern(port: Port, platform: Platform, pattern: SecretPattern, starts: readonly WalkedFolder[]): Promise<Walked> {
  const flavor = pathFlavor(platform);
  const links: Walked['links'] = [];
  let from = pattern.literal?.parts ?? 0;
  if (!(pattern.parts[from] instanceof RegExp)) return { links, whole: [] };
  let level = starts;
  let budget = MAX_LOOKED_AT;
  for (; from < pattern.parts.length && level.length > 0; from++) {
    const part = pattern.parts[from]!;
    if (part === '**') break;
    // By real path: two spellings of one folder (a link back up) are walked once.
    const next = new Map<string, boolean>();
    for (const folder of level) {
      if (budget <= 0) break;
      const names = (await port.listNames(folder.real, MAX_LISTED)) ?? [];
      budget -= names.length;
      const spelled = names.filter((name) => part.test(foldName(name))).map((name) => flavor.join(folder.real, name));
      const reals = await Promise.all(spelled.map((place) => realOf(port, platform, place)));
      for (const [i, real] of reals.entries()) {
        if (real === undefined) continue;
        const linked = real !== spelled[i];
        if (linked) links.push({ real, from: from + 1 });
        next.set(real, next.get(real) === true || linked || folder.throughLink);
      }
    }
    level = [...next].map(([real, throughLink]) => ({ real, throughLink }));
  }
  const rest = pattern.parts.slice(from);
  const whole = rest.length === 0 || (rest.length === 1 && rest[0] === '**');
  return { links, whole: whole ? level.filter((folder) => folder.throughLink).map((folder) => folder.real) : [] };
}

/** Where a listed entry really is: itself, or where it leads if it is a link; undefined when it is gone, or a link to nowhere or a loop. */
async function realOf(port: Port, platform: Platform, place: string): Promise<string | undefined> {
  const facts = await port.lstat(place).catch(() => null);
  if (facts === null) return undefined;
  if (facts.type !== 'symlink') return place;
  const located = await locatePath(port, platform, place);
  return located.ok && located.exists ? located.path : undefined;
}
