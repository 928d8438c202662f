/**
 * A call to a tool this server has but the owner did not grant: instead of the SDK's bare
 * "Tool X not found", a tool error saying that it exists, that it is not granted, and which
 * settings grant it. A call under the other separator (process.output where the server exposes
 * process_output, from an old chat or a copied doc) is told the name to use. Nothing runs.
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { Config } from '../config/schema.js';
import type { ToolDefinition } from './tool.js';
import { errorResult } from './tool-errors.js';
import { READ_ONLY_WORDS } from '../policy/read-only.js';
import { exposedAs, exposedName } from './tool-names.js';

export function notGrantedResult(exposed: string, tool: ToolDefinition, config: Readonly<Config>, refusal?: string): CallToolResult {
  if (refusal) return errorResult(refusal);
  if (tool.grant.granted(config)) {
    return errorResult(`CAPABILITY_DISABLED: ${exposed} changes things, and ${READ_ONLY_WORDS}; the owner turns that off, then restarts the server`);
  }
  return errorResult(
    `CAPABILITY_DISABLED: ${exposed} exists but is not granted on this server; the owner grants it with ${tool.grant.words}, then restarts the server`,
  );
}

type Handler = (request: { params: { name: string } }, ctx: unknown) => Promise<unknown>;
interface HandlerAccess {
  _getRequestHandler(method: string): Handler | undefined;
  setRequestHandler(method: string, handler: Handler): void;
}

function misnamedResult(called: string, exposed: string, why = 'server.toolNames'): CallToolResult {
  return errorResult(`INVALID_INPUT: this server has no tool ${called}; it is named ${exposed} here (${why}); call ${exposed}`);
}

/** A tool the owner did not grant, by the name it would have here. */
export interface UngrantedTool {
  exposed: string;
  tool: ToolDefinition;
  /** Granted, but outside the caller's profile: the refusal that says so. */
  refusal?: string;
}

/** The calls the SDK would answer with a bare "Tool X not found", and what to answer instead. */
export interface OtherCalls {
  /** Ungranted tools, under either separator. */
  ungranted: ReadonlyMap<string, UngrantedTool>;
  /** A granted tool's name under the separator the config does not use -> its exposed name. */
  misnamed: ReadonlyMap<string, string>;
  /** A call the gateway's tools answer before the SDK does (gatewayCalls); their names change as upstreams do. */
  gateway?: (called: string) => CallToolResult | undefined;
}

export function otherCalls(
  known: readonly ToolDefinition[],
  granted: ReadonlySet<string>,
  config: Readonly<Config>,
  outside?: (tool: ToolDefinition, exposed: string) => string | undefined,
): OtherCalls {
  const otherStyle = config.server.toolNames === 'underscore' ? 'dotted' : 'underscore';
  const ungranted = new Map<string, UngrantedTool>();
  const misnamed = new Map<string, string>();
  const exposedNames = new Set(known.map((t) => exposedName(t.name, config)));
  for (const t of known) {
    const exposed = exposedName(t.name, config);
    const alias = exposedAs(t.name, otherStyle);
    const aliases = alias === exposed || exposedNames.has(alias) ? [] : [alias];
    const refusal = granted.has(t.name) ? undefined : outside?.(t, exposed);
    if (!granted.has(t.name)) for (const name of [exposed, ...aliases]) ungranted.set(name, { exposed, tool: t, ...(refusal ? { refusal } : {}) });
    else for (const name of aliases) misnamed.set(name, exposed);
  }
  return { ungranted, misnamed };
}

/**
 * Calls of the gateway's tools the SDK would answer with a bare "not found": one called with dots
 * for its underscores (fixture.noop for fixture_noop, as a model may write it after reading the
 * built-in tools' dotted names) is told the name to use, and, for a caller whose profile has no
 * gateway, every one of them is refused with `outsideProfile`'s words.
 */
export function gatewayCalls(
  exists: (name: string) => boolean,
  outsideProfile?: (exposed: string) => string,
  held?: (name: string) => string | undefined,
): (called: string) => CallToolResult | undefined {
  return (called) => {
    const heldWhy = outsideProfile ? undefined : held?.(called);
    if (heldWhy !== undefined) return errorResult(heldWhy);
    const underscored = called.replace(/\./g, '_');
    const exposed = exists(called) ? called : underscored !== called && exists(underscored) ? underscored : undefined;
    if (exposed === undefined) return undefined;
    if (outsideProfile) return errorResult(outsideProfile(exposed));
    return exposed === called ? undefined : misnamedResult(called, exposed, "another MCP server's tools are named prefix_tool");
  };
}

/** Answers the `calls` before the SDK's own tools/call handler. */
export function answerUngranted(server: McpServer, { ungranted, misnamed, gateway }: OtherCalls, config: Readonly<Config>): void {
  const protocol = server.server as unknown as HandlerAccess;
  const original = protocol._getRequestHandler?.('tools/call');
  if (!original || (ungranted.size + misnamed.size === 0 && !gateway)) return;
  protocol.setRequestHandler('tools/call', async (request, ctx) => {
    const called = request.params.name;
    const missing = ungranted.get(called);
    if (missing !== undefined) return notGrantedResult(missing.exposed, missing.tool, config, missing.refusal);
    const answered = gateway?.(called);
    if (answered !== undefined) return answered;
    const exposed = misnamed.get(called);
    return exposed === undefined ? original(request, ctx) : misnamedResult(called, exposed);
  });
}
