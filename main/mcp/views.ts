/**
 * MCP Apps views: HTML pages a host that speaks the MCP Apps extension shows beside a tool's
 * answer (sandboxed, talking to this server only through the host). Each is built from
 * renderer/views/ into one self-contained file (build/views.mjs) and served here as a `ui://`
 * resource; the tool that has one names it in `_meta.ui.resourceUri`, but only in the
 * `tools/list` answers of clients that declare the extension: every other host sees the tools
 * exactly as before, and every host gets the same text answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_CAPABILITIES_META_KEY, type CallToolResult, type ClientCapabilities, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { AnswerShape } from './answer/answer-budget.js';
import { getUiCapability, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';

/** Every view's URI starts so; an upstream's resource under it is not served (gateway-tools.ts). */
export const VIEW_URI_PREFIX = 'ui://chatgpt-mcp/';

export interface ViewSpec {
  /** The built file's name in out/main/views/ (and the resource's name). */
  name: string;
  title: string;
  /** The contract tool names the view's page calls back, by key (filled in as the config exposes them). */
  calls: Record<string, string>;
}

/** Which contract tool has which view. */
export const VIEWS: Readonly<Record<string, ViewSpec>> = {
  'screen.capture': { name: 'screenshot', title: 'Screenshot', calls: { click: 'input.click' } },
  'fs.edit': { name: 'changes', title: 'Change review', calls: {} },
  'fs.patch': { name: 'changes', title: 'Change review', calls: {} },
  'git.diff': { name: 'changes', title: 'Change review', calls: {} },
  'git.show': { name: 'changes', title: 'Change review', calls: {} },
  'process.start': { name: 'process', title: 'Live process', calls: { output: 'process.output' } },
  'process.output': { name: 'process', title: 'Live process', calls: { output: 'process.output' } },
  'audit.recent': { name: 'activity', title: 'Activity', calls: { search: 'audit.search' } },
  'audit.search': { name: 'activity', title: 'Activity', calls: { search: 'audit.search' } },
};

export interface ServedView {
  /** The exposed names of the tools that show it. */
  tools: string[];
  uri: string;
  title: string;
  html: string;
}

/** The places the built views can be, from this module: the CLI's bundle or chunk, the tray's bundle, the sources under test. */
function viewsDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.join(here, 'views'),
    path.join(here, '..', 'views'),
    path.join(here, '..', '..', 'main', 'views'),
    path.join(here, '..', '..', 'out', 'main', 'views'),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'screenshot.html'))) ?? null;
}

let dir: string | null | undefined;

/**
 * The views of the granted tools, read once per server factory. A view not built (a source
 * checkout before `npm run build`) is simply not offered: its tool answers as it always does.
 */
export function servedViews(exposed: ReadonlyMap<string, string>, exposedName: (contract: string) => string): ServedView[] {
  dir ??= viewsDir();
  if (!dir) return [];
  const served = new Map<string, ServedView>();
  for (const [contract, spec] of Object.entries(VIEWS)) {
    const tool = exposed.get(contract);
    const file = path.join(dir, `${spec.name}.html`);
    if (!tool || !fs.existsSync(file)) continue;
    const known = served.get(spec.name);
    if (known) {
      known.tools.push(tool);
      continue;
    }
    const config = Object.fromEntries(Object.entries(spec.calls).map(([key, name]) => [key, exposedName(name)]));
    // JSON inside <script type="application/json">: `<` escaped so no text can close the tag.
    const json = JSON.stringify(config).replace(/</g, '\\u003c');
    const html = fs.readFileSync(file, 'utf8').replace('__CONFIG__', () => json);
    served.set(spec.name, { tools: [tool], uri: `${VIEW_URI_PREFIX}${spec.name}.html`, title: spec.title, html });
  }
  return [...served.values()];
}

/** Where a result carries what its view needs and the model's shape left out (see withViewData). */
export const VIEW_DATA_KEY = 'io.github.chatgpt-mcp/view';
/** More than this is not copied for the view: it shows what structuredContent kept, or the text. */
const MAX_VIEW_DATA_CHARS = 256 * 1024;

/**
 * ChatGPT shows its model both the text and structuredContent, so its answers carry the payload
 * (a diff, an output chunk, the capture's `space`) in the text only (answer/answer-budget.ts).
 * Its views read structured data: the fields left out travel in the result's `_meta`, which
 * MCP Apps hosts hand to the view and never to the model.
 */
export function withViewData(fitted: CallToolResult, whole: Record<string, unknown>, shape: AnswerShape): CallToolResult {
  if (shape !== 'text' || fitted.isError) return fitted;
  const json = JSON.stringify(whole);
  if (json.length > MAX_VIEW_DATA_CHARS || JSON.stringify(fitted.structuredContent) === json) return fitted;
  return { ...fitted, _meta: { ...fitted._meta, [VIEW_DATA_KEY]: whole } };
}

/** The `_meta` a tool with a view is listed with (both the nested key and the flat legacy one). */
export function viewMeta(view: ServedView): Record<string, unknown> {
  return { ui: { resourceUri: view.uri }, [RESOURCE_URI_META_KEY]: view.uri };
}

/**
 * Registers the views as resources (the SDK then declares the resources capability) and makes
 * `tools/list` name them only to clients that declare the MCP Apps extension: the client's
 * capabilities from the request's envelope (2026-07-28) or from `initialize` (2025 revisions).
 */
export function registerViews(server: McpServer, views: readonly ServedView[]): void {
  if (views.length === 0) return;
  for (const view of views) {
    server.registerResource(
      `${view.title} view`,
      view.uri,
      {
        mimeType: RESOURCE_MIME_TYPE,
        description: `Shows the answers of ${view.tools.join(', ')} in hosts with MCP Apps`,
        // No domain at all: the host lets the page load nothing but itself.
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      },
      () => ({
        contents: [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: view.html, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } }],
      }),
    );
  }
  const withViews = new Set(views.flatMap((v) => v.tools));
  const inner = server.server as unknown as { _getRequestHandler(method: string): ((request: unknown, ctx: ServerContext) => Promise<unknown>) | undefined };
  const list = inner._getRequestHandler('tools/list');
  // Fail loudly rather than name views to every client (the SDK is pinned; its tests catch a change).
  if (!list) throw new Error('views: the SDK no longer lets tools/list be wrapped; views would be listed to every client');
  server.server.setRequestHandler('tools/list', async (request, ctx) => {
    const listed = (await list(request, ctx)) as { tools: Array<{ name: string; _meta?: Record<string, unknown> }> };
    if (supportsViews(server, ctx)) return listed as never;
    return { ...listed, tools: listed.tools.map((tool) => (withViews.has(tool.name) ? withoutView(tool) : tool)) } as never;
  });
}

function supportsViews(server: McpServer, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.server.getClientCapabilities();
  const ui = getUiCapability(capabilities);
  return Boolean(ui && (ui.mimeTypes === undefined || ui.mimeTypes.includes(RESOURCE_MIME_TYPE)));
}

function withoutView<T extends { _meta?: Record<string, unknown> }>(tool: T): T {
  const { ui: _ui, [RESOURCE_URI_META_KEY]: _uri, ...rest } = tool._meta ?? {};
  const { _meta: _dropped, ...bare } = tool;
  return (Object.keys(rest).length > 0 ? { ...bare, _meta: rest } : bare) as T;
}
