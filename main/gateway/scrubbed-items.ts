/**
 * What upstreams say, with the secrets resolved for them scrubbed out: listings item by item (an
 * item's address kept, or the item left out when its address holds one) and any value's strings.
 */
import type { Exposure } from './catalog.js';

/** What upstreams list, the secrets resolved for them scrubbed from what describes it (a description echoing its env, say); names and URIs stay (they address it), or the item goes when they hold one. */
export function scrubbedListing(exposure: Exposure, scrubbed: <T>(item: T) => T): Exposure {
  const clean = <T extends object>(items: T[], addresses: ReadonlyArray<keyof T>) => scrubbedItems(items, addresses, scrubbed);
  return {
    ...exposure,
    tools: clean(exposure.tools, ['exposed', 'upstream', 'tool', 'pathArguments']),
    prompts: clean(exposure.prompts, ['exposed', 'upstream', 'prompt']),
    resources: clean(exposure.resources, ['upstream', 'uri', 'name']),
    resourceTemplates: clean(exposure.resourceTemplates, ['upstream', 'uriTemplate', 'name']),
  };
}

/**
 * Items scrubbed of the resolved secrets but for the fields that address them (scrubbed, a name
 * or URI would address nothing); an item whose address holds a secret is left out whole.
 */
export function scrubbedItems<T extends object>(items: readonly T[], addresses: ReadonlyArray<keyof T>, scrubbed: <V>(item: V) => V): T[] {
  return items.flatMap((item) => {
    const out = scrubbed(item);
    if (out === item) return [item];
    if (addresses.some((key) => scrubbed(item[key]) !== item[key])) return [];
    return [{ ...out, ...Object.fromEntries(addresses.map((key) => [key, item[key]])) }];
  });
}

/** `value` with every string in it (keys too) passed through `scrub`. */
export function scrubStrings<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubStrings(item, scrub)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrub(key), scrubStrings(item, scrub)])) as T;
  return value;
}
