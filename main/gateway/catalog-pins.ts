/**
 * Pinning of an upstream's prompts and resource templates, as tools are pinned (pin-store.ts):
 * the owner reads their descriptions (and a model may), so one that changes after the owner
 * accepted it (a description swapped for instructions, new arguments) or appears later is held,
 * left out of what is exposed, until the owner accepts it. Compared whole (canonical JSON), so
 * key order is no change. Resources are not pinned: many upstreams list their data as resources
 * (files, records), which change as the data does.
 *
 * What the owner accepted is kept beside the catalog as last listed; the first catalog an
 * upstream lists (or the first one seen by a version before this pinning) is accepted as it is.
 */
import { canonicalJson } from '../canonical-json.js';

type Item = Record<string, unknown>;

/** Resources, templates and prompts as last listed, to answer lists while a lazy upstream sleeps. */
export interface Catalog {
  resources: Array<Record<string, unknown>>;
  resourceTemplates: Array<Record<string, unknown>>;
  prompts: Array<Record<string, unknown>>;
  /** Tools it listed that were not taken (tool-limits.ts), each a sentence. */
  leftOut?: string[];
}

/** The prompts and resource templates the owner accepted, as they were then. */
export interface AcceptedCatalog {
  prompts: Item[];
  resourceTemplates: Item[];
}

/** Something held until the owner accepts it (a tool, or an item here), with what it was and is. */
export interface HeldEntry {
  /** A tool's name; `prompt "NAME"` or `resource template "URI TEMPLATE"` for an item. */
  name: string;
  reason: 'changed' | 'new';
  /** As accepted (absent for a new one) and as listed now: the owner is shown the difference. */
  before?: unknown;
  now: unknown;
  /** When a held tool was first seen as it is now. */
  seenAt?: string;
}

const KINDS = [
  { list: 'prompts', key: 'name', label: 'prompt' },
  { list: 'resourceTemplates', key: 'uriTemplate', label: 'resource template' },
] as const;

/** The first catalog seen is accepted whole. */
export function acceptedFrom(catalog: Catalog): AcceptedCatalog {
  return { prompts: catalog.prompts, resourceTemplates: catalog.resourceTemplates };
}

/** The catalog with only what the owner accepted, unchanged, of its prompts and templates. */
export function acceptedOnly(catalog: Catalog, accepted: AcceptedCatalog | undefined): Catalog {
  if (!accepted) return catalog;
  const out = { ...catalog };
  for (const { list, key } of KINDS) {
    const known = new Set(accepted[list].map((item) => `${String(item[key])}\0${canonicalJson(item)}`));
    out[list] = catalog[list].filter((item) => known.has(`${String(item[key])}\0${canonicalJson(item)}`));
  }
  return out;
}

/** The prompts and templates listed now that the owner has not accepted as they are. */
export function heldItems(catalog: Catalog | undefined, accepted: AcceptedCatalog | undefined): HeldEntry[] {
  if (!catalog || !accepted) return [];
  const held: HeldEntry[] = [];
  for (const { list, key, label } of KINDS) {
    const before = new Map(accepted[list].map((item) => [String(item[key]), item]));
    for (const item of catalog[list]) {
      const was = before.get(String(item[key]));
      if (was && canonicalJson(was) === canonicalJson(item)) continue;
      held.push({ name: `${label} "${String(item[key])}"`, reason: was ? 'changed' : 'new', ...(was ? { before: was } : {}), now: item });
    }
  }
  return held;
}

/**
 * What is accepted once the upstream lists `catalog`: the accepted version of each item still
 * listed (an item no longer listed is forgotten, as a tool is: back later, it is new), and for
 * those `accept` names, the version listed now.
 */
function acceptedNow(catalog: Catalog, accepted: AcceptedCatalog, accept: (name: string) => boolean): AcceptedCatalog {
  const next = { ...accepted };
  for (const { list, key, label } of KINDS) {
    const before = new Map(accepted[list].map((item) => [String(item[key]), item]));
    next[list] = catalog[list].flatMap((item) => {
      if (accept(`${label} "${String(item[key])}"`)) return [item];
      const was = before.get(String(item[key]));
      return was ? [was] : [];
    });
  }
  return next;
}

/** The accepted items pruned to what the upstream lists now (nothing newly accepted). */
export function stillListed(catalog: Catalog, accepted: AcceptedCatalog): AcceptedCatalog {
  return acceptedNow(catalog, accepted, () => false);
}

/** What is accepted once the held items are (all, or the one named as heldItems names it); null when none was held. */
export function acceptItems(catalog: Catalog | undefined, accepted: AcceptedCatalog | undefined, name?: string): AcceptedCatalog | null {
  if (!catalog || !accepted) return null;
  const names = new Set(heldItems(catalog, accepted).flatMap((held) => (name === undefined || held.name === name ? [held.name] : [])));
  return names.size === 0 ? null : acceptedNow(catalog, accepted, (item) => names.has(item));
}
