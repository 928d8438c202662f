/**
 * What an upstream offers, read once it started: every page of its tools (up to what could be
 * taken), resources, resource templates and prompts. The catalog's lists are read as plain JSON
 * and each item is checked on its own afterwards (catalog-check.ts): the SDK client's own methods
 * parse a whole list at once, so one prompt it refuses (an argument without a name) failed the
 * upstream's start, and every tool of it with it. Its first views are read, to be pinned.
 */
import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { MAX_TOOLS } from './tool-limits.js';
import { MAX_CATALOG_ITEMS } from './catalog-check.js';
import { isViewUri, MAX_VIEWS } from './view-pins.js';

export interface Discovery {
  tools: Array<Record<string, unknown> & { name: string; inputSchema: Record<string, unknown> }>;
  /** It listed more tools than were read (reading stops past MAX_TOOLS plus a page's worth). */
  moreTools?: boolean;
  resources: Array<Record<string, unknown>>;
  resourceTemplates: Array<Record<string, unknown>>;
  prompts: Array<Record<string, unknown>>;
  /** What a read of each of its first views answered (view-pins.ts), by URI; null where the read failed. */
  views: Map<string, unknown>;
}

type Page = { nextCursor?: string } & Record<string, unknown>;

/** A list's page checked only for being an object whose cursor, if any, is a string. */
const PAGE = {
  '~standard': {
    version: 1,
    vendor: 'chatgpt-mcp-gateway',
    validate(value: unknown) {
      const page = value as Page | null;
      const ok = page !== null && typeof page === 'object' && !Array.isArray(page) && (page.nextCursor === undefined || typeof page.nextCursor === 'string');
      return ok ? { value: page } : { issues: [{ message: 'not a list result' }] };
    },
  },
} as StandardSchemaV1<unknown, Page>;

/** Everything the upstream offers, every page of it. */
export async function discover(client: Client): Promise<Discovery> {
  const caps = client.getServerCapabilities() ?? {};
  let moreTools = false;
  const all = async <T>(list: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>, key: string, most = Infinity): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await list(cursor);
      const listed = result[key];
      items.push(...(Array.isArray(listed) ? (listed as T[]) : []));
      cursor = result.nextCursor;
      if (!cursor) break;
      // No more pages than could be taken (tool-limits.ts, catalog-check.ts): the rest is not even read.
      if (items.length > most) {
        if (key === 'tools') moreTools = true;
        return items;
      }
    }
    return items;
  };
  const raw = (method: 'resources/list' | 'resources/templates/list' | 'prompts/list') => (cursor?: string) =>
    client.request({ method, ...(cursor ? { params: { cursor } } : {}) }, PAGE);
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    // Page by page (listTools without a cursor reads every page first), to stop past MAX_TOOLS.
    caps.tools
      ? all<Discovery['tools'][number]>((c) => (c ? client.listTools({ cursor: c }) : client.request({ method: 'tools/list' })), 'tools', MAX_TOOLS)
      : [],
    caps.resources ? all<Record<string, unknown>>(raw('resources/list'), 'resources', MAX_CATALOG_ITEMS) : [],
    caps.resources ? all<Record<string, unknown>>(raw('resources/templates/list'), 'resourceTemplates', MAX_CATALOG_ITEMS) : [],
    caps.prompts ? all<Record<string, unknown>>(raw('prompts/list'), 'prompts', MAX_CATALOG_ITEMS) : [],
  ]);
  const views = new Map<string, unknown>();
  for (const uri of new Set(resources.map((resource) => String(resource.uri)).filter(isViewUri))) {
    if (views.size === MAX_VIEWS) break;
    views.set(uri, await client.readResource({ uri }).catch(() => null));
  }
  return { tools, resources, resourceTemplates, prompts, views, ...(moreTools ? { moreTools } : {}) };
}
