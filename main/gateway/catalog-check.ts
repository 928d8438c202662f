/**
 * The resources, resource templates and prompts an upstream lists, each checked before anything
 * is built of it: one the SDK would refuse to register (a template with an unclosed `{`, a
 * resource without a URI, a prompt argument that is not an object) would otherwise make every
 * session's `initialize` fail, or throw in a stdio server's list refresh and end the process.
 * Checked as the upstream lists them and again when the pins file's catalog is read (a file
 * written by an older version, or by hand); only the bad item is left out, with its reason.
 */
import { UriTemplate } from '@modelcontextprotocol/client';
import type { Catalog } from './catalog-pins.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';

type Item = Record<string, unknown>;
type Kind = 'resources' | 'resourceTemplates' | 'prompts';

/** Longest URI or URI template kept (the SDK's own limit is far larger; nothing real comes near). */
const MAX_URI_CHARS = 8192;
/** Resources, templates or prompts taken from one upstream, each kind (as tools: tool-limits.ts); the rest is not even read (discover.ts). */
export const MAX_CATALOG_ITEMS = 512;
/** One item as JSON: every listing of every session carries it. */
const MAX_ITEM_BYTES = 64 * 1024;

const isObject = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (item: Item, key: string) => item[key] === undefined || typeof item[key] === 'string';

/** Why a listed item cannot be served, or null when it can. */
function problemOf(kind: Kind, item: unknown): string | null {
  if (!isObject(item)) return 'it is not an object';
  if (nestedDeeperThan(item)) return `it nests deeper than ${MAX_JSON_DEPTH} levels`;
  if (JSON.stringify(item).length > MAX_ITEM_BYTES) return `it is over ${MAX_ITEM_BYTES / 1024} KiB as JSON`;
  for (const key of ['name', 'title', 'description', 'mimeType']) if (!optionalString(item, key)) return `its ${key} is not a string`;
  if (item._meta !== undefined && !isObject(item._meta)) return 'its _meta is not an object';
  if (kind === 'resources') {
    if (typeof item.uri !== 'string' || item.uri === '') return 'it has no URI';
    if (item.uri.length > MAX_URI_CHARS) return `its URI is longer than ${MAX_URI_CHARS} characters`;
    if (!URL.canParse(item.uri)) return 'its URI is not a URI';
    return null;
  }
  if (kind === 'resourceTemplates') {
    if (typeof item.uriTemplate !== 'string' || item.uriTemplate === '') return 'it has no uriTemplate';
    if (item.uriTemplate.length > MAX_URI_CHARS) return `its uriTemplate is longer than ${MAX_URI_CHARS} characters`;
    try {
      new UriTemplate(item.uriTemplate);
    } catch (error) {
      return `its uriTemplate is not a URI template (${error instanceof Error ? error.message : String(error)})`;
    }
    return null;
  }
  if (typeof item.name !== 'string' || item.name === '') return 'it has no name';
  if (item.arguments === undefined) return null;
  if (!Array.isArray(item.arguments)) return 'its arguments are not a list';
  for (const argument of item.arguments as unknown[]) {
    if (!isObject(argument) || typeof argument.name !== 'string' || argument.name === '') return 'an argument has no name';
    if (!optionalString(argument, 'description')) return `the argument "${argument.name}" has a description that is not a string`;
    if (argument.required !== undefined && typeof argument.required !== 'boolean')
      return `the argument "${argument.name}" has a required that is not true or false`;
  }
  return null;
}

const KINDS: Record<Kind, string> = { resources: 'resource', resourceTemplates: 'resource template', prompts: 'prompt' };

/** What could name an item in a log line (never more than a line of it). */
function labelOf(item: unknown): string {
  if (!isObject(item)) return JSON.stringify(item)?.slice(0, 80) ?? String(item);
  const label = [item.name, item.uri, item.uriTemplate].find((v) => typeof v === 'string') as string | undefined;
  return label === undefined ? '(unnamed)' : JSON.stringify(label.slice(0, 120));
}

/**
 * The catalog with every item that cannot be served left out; `leftOut` is told each one (the
 * kind, what names it, why), for the log. Anything that is not a catalog at all is an empty one.
 */
export function checkedCatalog(catalog: unknown, leftOut: (reason: string) => void): Catalog {
  const source = isObject(catalog) ? catalog : {};
  const out: Catalog = { resources: [], resourceTemplates: [], prompts: [] };
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const items = Array.isArray(source[kind]) ? (source[kind] as unknown[]) : [];
    for (const item of items) {
      const problem = problemOf(kind, item);
      if (problem !== null) leftOut(`${KINDS[kind]} ${labelOf(item)} left out: ${problem}`);
      else if (out[kind].length < MAX_CATALOG_ITEMS) out[kind].push(item as Item);
      else {
        leftOut(`${KINDS[kind]}s past the first ${MAX_CATALOG_ITEMS} left out: at most ${MAX_CATALOG_ITEMS} are taken from one server`);
        break;
      }
    }
  }
  return out;
}

/** A pins file's views, each kept only if its listing entry could be served and its read is as view-pins.ts records it; undefined when it has none. */
export function checkedViews(views: unknown): Item[] | undefined {
  if (!Array.isArray(views)) return undefined;
  const readAs = (content: unknown) =>
    content === null ||
    (isObject(content) &&
      typeof content.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(content.sha256) &&
      Number.isSafeInteger(content.bytes) &&
      Array.isArray(content.page) &&
      content.page.every((line) => typeof line === 'string'));
  return views.filter(
    (view): view is Item =>
      isObject(view) && isObject(view.listed) && problemOf('resources', view.listed) === null && view.uri === view.listed.uri && readAs(view.content),
  );
}
