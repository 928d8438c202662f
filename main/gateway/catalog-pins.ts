/**
 * Pinning of an upstream's prompts, resource templates and views, as tools are pinned
 * (pin-store.ts): the owner reads their descriptions (and a model may), so one that changes after
 * the owner accepted it (a description swapped for instructions, new arguments, another page in a
 * view: view-pins.ts) or appears later is held, left out of what is exposed, until the owner
 * accepts it. Compared whole (canonical JSON), so key order is no change. Other resources are not
 * pinned: many upstreams list their data as resources (files, records), which change as the data
 * does.
 *
 * What the owner accepted is kept beside the catalog as last listed; the first catalog an
 * upstream lists (or the first one seen by a version before this pinning) is accepted as it is.
 */
import { canonicalJson } from '../canonical-json.js';
import { isViewUri } from './view-pins.js';

type Item = Record<string, unknown>;

/** Resources, templates and prompts as last listed, to answer lists while a lazy upstream sleeps. */
export interface Catalog {
  resources: Array<Record<string, unknown>>;
  resourceTemplates: Array<Record<string, unknown>>;
  prompts: Array<Record<string, unknown>>;
  /** Its `ui://` resources with what a read of each answered (view-pins.ts); absent in a file from before views were pinned. */
  views?: Item[];
  /** Tools it listed that were not taken (tool-limits.ts), each a sentence. */
  leftOut?: string[];
}

/** The prompts, resource templates and views the owner accepted, as they were then (views absent: accepted as next listed). */
export interface AcceptedCatalog {
  prompts: Item[];
  resourceTemplates: Item[];
  views?: Item[];
}

/** Something held until the owner accepts it (a tool, or an item here), with what it was and is. */
export interface HeldEntry {
  /** A tool's name; `prompt "NAME"`, `resource template "URI TEMPLATE"` or `view "URI"` for an item. */
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
  { list: 'views', key: 'uri', label: 'view' },
] as const;

type Lists = Pick<Catalog, (typeof KINDS)[number]['list']>;

/** One kind's items; views a file from before them lacks are, as accepted, those listed now (the first catalog's rule). */
function itemsOf(from: Lists, list: keyof Lists, listed?: Lists): Item[] {
  return from[list] ?? listed?.[list] ?? [];
}

/** The first catalog seen is accepted whole. */
export function acceptedFrom(catalog: Catalog): AcceptedCatalog {
  return { prompts: catalog.prompts, resourceTemplates: catalog.resourceTemplates, ...(catalog.views ? { views: catalog.views } : {}) };
}

/** The catalog with only what the owner accepted, unchanged, of its prompts, templates and views (a view's resource goes with it). */
export function acceptedOnly(catalog: Catalog, accepted: AcceptedCatalog | undefined): Catalog {
  if (!accepted) return catalog;
  const out = { ...catalog };
  for (const { list, key } of KINDS) {
    const known = new Set(itemsOf(accepted, list, catalog).map((item) => `${String(item[key])}\0${canonicalJson(item)}`));
    out[list] = itemsOf(catalog, list).filter((item) => known.has(`${String(item[key])}\0${canonicalJson(item)}`));
  }
  if (catalog.views === undefined) return { ...out, views: undefined };
  // A view's resource goes out only as its accepted listing: listed twice, the other entry (a wider CSP) stays out.
  const views = new Set(out.views!.map((view) => `${String(view.uri)}\0${canonicalJson(view.listed)}`));
  out.resources = catalog.resources.filter((resource) => !isViewUri(String(resource.uri)) || views.has(`${String(resource.uri)}\0${canonicalJson(resource)}`));
  return out;
}

/** The prompts, templates and views listed now that the owner has not accepted as they are. */
export function heldItems(catalog: Catalog | undefined, accepted: AcceptedCatalog | undefined): HeldEntry[] {
  if (!catalog || !accepted) return [];
  const held: HeldEntry[] = [];
  for (const { list, key, label } of KINDS) {
    const before = new Map(itemsOf(accepted, list, catalog).map((item) => [String(item[key]), item]));
    for (const item of itemsOf(catalog, list)) {
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
    // A catalog from before views were read says nothing of them: what was accepted stays.
    if (catalog[list] === undefined) continue;
    const before = new Map(itemsOf(accepted, list, catalog).map((item) => [String(item[key]), item]));
    next[list] = itemsOf(catalog, list).flatMap((item) => {
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
