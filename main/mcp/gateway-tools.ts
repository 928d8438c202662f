/**
 * Gateway tools as the tool host serves them: registered on each request's McpServer beside the
 * built-in tools, from what the gateway exposes right now, each call going through the same
 * `recorded` wrapper as a built-in tool (observer, log line, error mapping, scrubbing). Their
 * schemas are the upstream's JSON Schemas as they are (the upstream validates its arguments);
 * progress and cancellation pass through. Resources, resource templates and prompts of the
 * upstreams are served too, and their capabilities declared, only when an upstream has them; a
 * stdio server that lives on is given the new ones when an upstream's list changes (the SDK
 * tells the host), as far as the capabilities it declared at the start allow.
 */
import {
  ResourceTemplate,
  type CallToolResult,
  type McpServer,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type ServerCapabilities,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import { heldMessage, type Exposure, type GatewayTool } from '../gateway/catalog.js';
import type { Gateway } from '../gateway/gateway.js';
import { recorded, type CallHandler, type RecordContext } from './recorded-call.js';
import { fitAnswer, type ServerFit } from './answer/answer-budget.js';
import { boundUpstreamAnswer } from './answer/upstream-answer.js';
import { boundPrompt, boundResourceRead } from './answer/upstream-contents.js';
import { shapeFor, type Caller } from './answer/caller-shape.js';
import type { DirectTool } from './stdio-wire.js';
import { VIEW_URI_PREFIX } from './views.js';
import { boundedProgress, throttleProgress, type ProgressReport } from './progress-throttle.js';

type Json = Record<string, unknown>;

/** A JSON Schema the SDK advertises as it is and lets through unchecked (the upstream checks it). */
function passThrough(schema: Json): StandardSchemaWithJSON {
  const frozen = Object.freeze(structuredClone(schema));
  return {
    '~standard': {
      version: 1,
      vendor: 'chatgpt-mcp-gateway',
      validate: (value: unknown) => ({ value: value ?? {} }),
      jsonSchema: { input: () => frozen, output: () => frozen },
    },
  } as unknown as StandardSchemaWithJSON;
}

export interface GatewayRegistrar {
  /** The capabilities to declare beside tools (resources, prompts) when an upstream has them. */
  capabilities(): ServerCapabilities;
  /** `caller` says who makes each call, for the answer's shape. */
  register(server: McpServer, caller: (ctx: Parameters<CallHandler>[1]) => Caller): void;
  /**
   * A server that lives on (stdio's) lists the tools exposed now: those gone are removed, new or
   * changed ones registered, the SDK telling the host (tools/list_changed) for each.
   */
  refresh(server: McpServer): void;
  /** A gateway tool as the stdio wire's shortcut runs it (stdio-wire.ts), by exposed name. */
  direct(name: string): DirectTool | undefined;
  /** Why a call to a held tool (new or changed, not yet accepted) is refused, by the name it would have. */
  heldRefusal(name: string): string | undefined;
}

/** The built-in tools for the stdio wire's shortcut, and the gateway's as they are at each call. */
export class WithGatewayTools extends Map<string, DirectTool> {
  constructor(
    builtIn: Iterable<readonly [string, DirectTool]>,
    private readonly gateway: GatewayRegistrar,
  ) {
    super(builtIn);
  }

  override get(name: string): DirectTool | undefined {
    return super.get(name) ?? this.gateway.direct(name);
  }
}

export function gatewayRegistrar(gateway: Gateway, context: Omit<RecordContext, 'exposed'>, fit: ServerFit): GatewayRegistrar {
  let cache: { exposure: Exposure; tools: Array<{ name: string; prepared: Registration }>; direct: Map<string, DirectTool> } | null = null;
  const prepared = () => {
    const exposure = gateway.exposed();
    if (cache?.exposure !== exposure) {
      const tools = exposure.tools.map((tool) => ({ name: tool.exposed, prepared: prepareTool(gateway, tool, context, fit) }));
      const direct = new Map(
        tools.map(({ name, prepared: { config, handler } }) => [
          name,
          {
            input: config.inputSchema as StandardSchemaWithJSON,
            ...(config.outputSchema ? { output: config.outputSchema as StandardSchemaWithJSON } : {}),
            handler,
          },
        ]),
      );
      cache = { exposure, tools, direct };
    }
    return cache;
  };
  return {
    capabilities() {
      const { exposure } = prepared();
      return {
        ...(exposure.resources.length > 0 || exposure.resourceTemplates.length > 0 ? { resources: {} } : {}),
        ...(exposure.prompts.length > 0 ? { prompts: {} } : {}),
      };
    },
    direct: (name) => prepared().direct.get(name),
    heldRefusal(name) {
      const held = prepared().exposure.held.find((h) => h.exposed === name);
      return held && `PRECONDITION_FAILED: ${heldMessage(held.upstream, held.tool, held.reason)}`;
    },
    register(server, caller) {
      const { exposure, tools } = prepared();
      const handles = new Map<string, Listed>();
      for (const { name, prepared: tool } of tools) handles.set(name, listTool(server, name, tool, caller));
      listedOn.set(server, { handles, caller, extras: registerExtras(server, gateway, exposure) });
    },
    refresh(server) {
      const listed = listedOn.get(server);
      if (!listed) return;
      const { tools, exposure } = prepared();
      if (listed.extras.json !== extrasJson(exposure)) {
        for (const handle of listed.extras.handles) handle.remove();
        listed.extras = registerExtras(server, gateway, exposure, listed.extras.kinds);
      }
      const now = new Map(tools.map((t) => [t.name, t.prepared]));
      for (const [name, { handle }] of listed.handles) {
        if (now.has(name)) continue;
        handle.remove();
        listed.handles.delete(name);
      }
      for (const [name, tool] of now) {
        const known = listed.handles.get(name);
        if (known?.json === listingOf(tool)) continue;
        known?.handle.remove();
        listed.handles.set(name, listTool(server, name, tool, listed.caller));
      }
    },
  };
}

type Registration = { config: Json; handler: CallHandler };
type Listed = { handle: RegisteredTool; json: string };
/** The resources, templates and prompts one server serves, and which of those kinds its capabilities let it serve. */
type Extras = {
  json: string;
  handles: Array<RegisteredResource | RegisteredResourceTemplate | RegisteredPrompt>;
  kinds: { resources: boolean; prompts: boolean };
};

/** What each server lists of the gateway's tools, resources and prompts (a stdio server refreshes it). */
const listedOn = new WeakMap<McpServer, { handles: Map<string, Listed>; caller: (ctx: Parameters<CallHandler>[1]) => Caller; extras: Extras }>();

function extrasJson(exposure: Exposure): string {
  return JSON.stringify([exposure.resources, exposure.resourceTemplates, exposure.prompts]);
}

/**
 * Registers the upstreams' resources and prompts. A server already connected cannot declare a
 * capability it lacked (the SDK refuses): it gets only the kinds it declared when it was built.
 */
function registerExtras(server: McpServer, gateway: Gateway, exposure: Exposure, kinds?: Extras['kinds']): Extras {
  const allowed = kinds ?? {
    resources: exposure.resources.length > 0 || exposure.resourceTemplates.length > 0,
    prompts: exposure.prompts.length > 0,
  };
  return {
    json: extrasJson(exposure),
    handles: [
      ...(allowed.resources ? registerResources(server, gateway, exposure) : []),
      ...(allowed.prompts ? registerPrompts(server, gateway, exposure) : []),
    ],
    kinds: allowed,
  };
}

/** What tools/list shows of a tool, as text to compare: its schemas as the JSON they list as. */
function listingOf(tool: Registration): string {
  return JSON.stringify(tool.config, (_key, value: unknown) => {
    const standard = (value as { '~standard'?: { jsonSchema?: { input?: () => unknown } } } | null)?.['~standard'];
    return standard?.jsonSchema?.input ? standard.jsonSchema.input() : value;
  });
}

function listTool(server: McpServer, name: string, tool: Registration, caller: (ctx: Parameters<CallHandler>[1]) => Caller): Listed {
  const handler: CallHandler = (args, ctx) => tool.handler(args, { ...ctx, caller: caller(ctx) });
  return { handle: server.registerTool(name, tool.config as never, handler as never), json: listingOf(tool) };
}

function prepareTool(gateway: Gateway, tool: GatewayTool, context: Omit<RecordContext, 'exposed'>, fit: ServerFit): Registration {
  const handler = recorded(
    { ...context, exposed: tool.exposed },
    tool.exposed,
    () => ({ upstream: tool.upstream }),
    async (args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const notify = ctx.mcpReq.notify;
      // Progress the upstream sent before its answer reaches the client before the answer, at most ten reports a second.
      const progress =
        token !== undefined && notify
          ? throttleProgress((report) => notify({ method: 'notifications/progress', params: { progressToken: token, ...report } }))
          : undefined;
      let result: unknown;
      try {
        // Scrubbed and bounded as an answer is (a message of megabytes, a secret echoed in it).
        const onprogress = progress && ((report: ProgressReport) => progress.report(boundedProgress(report, (text) => gateway.scrub(text))));
        result = await gateway.call(tool, args, { signal: ctx.mcpReq.signal, ...(onprogress ? { onprogress } : {}) });
      } finally {
        await progress?.flush();
      }
      // Without the secrets the gateway resolved for it (its env echoed back, say); resources and prompts likewise.
      const clean = gateway.cleaned(result as CallToolResult);
      // An upstream's answer is read by the same model: cut to the same budget (its schema unknown, so no payload or note field).
      return fitAnswer(boundUpstreamAnswer(clean, fit.budget), { ...fit, shape: shapeFor(ctx.caller) });
    },
  );
  return {
    config: {
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description,
      inputSchema: passThrough(tool.inputSchema),
      ...(tool.outputSchema ? { outputSchema: passThrough(tool.outputSchema) } : {}),
      annotations: tool.annotations,
      ...(tool._meta ? { _meta: tool._meta } : {}),
    },
    handler,
  };
}

function registerResources(server: McpServer, gateway: Gateway, exposure: Exposure): Array<RegisteredResource | RegisteredResourceTemplate> {
  const read = (upstream: string) => async (uri: URL) => boundResourceRead(gateway.cleaned(await gateway.readResource(upstream, uri.href)));
  const handles: Array<RegisteredResource | RegisteredResourceTemplate> = [];
  for (const resource of exposure.resources) {
    const { upstream, uri, name, ...metadata } = resource;
    // Our own views' URIs are ours: an upstream's resource there would clash (and could pose as one).
    if (uri.startsWith(VIEW_URI_PREFIX)) continue;
    tryRegister(handles, () => server.registerResource(name, uri, metadata, read(upstream) as never));
  }
  for (const template of exposure.resourceTemplates) {
    const { upstream, uriTemplate, name, ...metadata } = template;
    // Nor a template that could produce one (its text before the first expression, compared both ways: `{+uri}` matches anything).
    const literal = uriTemplate.split('{')[0]!;
    if (literal.startsWith(VIEW_URI_PREFIX) || VIEW_URI_PREFIX.startsWith(literal)) continue;
    tryRegister(handles, () => server.registerResource(name, new ResourceTemplate(uriTemplate, { list: undefined }), metadata, read(upstream) as never));
  }
  return handles;
}

/**
 * One upstream item registered, or left out if the SDK refuses it: the gateway checked each
 * (catalog-check.ts), and what still fails must not fail the session's `initialize` with it.
 */
function tryRegister<T>(handles: T[], register: () => T): void {
  try {
    handles.push(register());
  } catch {
    // left out; the catalog check logged what it could see
  }
}

function registerPrompts(server: McpServer, gateway: Gateway, exposure: Exposure): RegisteredPrompt[] {
  const handles: RegisteredPrompt[] = [];
  for (const prompt of exposure.prompts) {
    const properties = Object.fromEntries(prompt.arguments.map((a) => [a.name, { type: 'string', ...(a.description ? { description: a.description } : {}) }]));
    const required = prompt.arguments.filter((a) => a.required).map((a) => a.name);
    const argsSchema = passThrough({ type: 'object', properties, ...(required.length ? { required } : {}) });
    tryRegister(handles, () =>
      server.registerPrompt(
        prompt.exposed,
        { ...(prompt.title ? { title: prompt.title } : {}), ...(prompt.description ? { description: prompt.description } : {}), argsSchema },
        (async (args: Record<string, string>) =>
          boundPrompt(
            gateway.cleaned(await gateway.use(prompt.upstream, (client: Client) => client.getPrompt({ name: prompt.prompt, arguments: args }))),
          )) as never,
      ),
    );
  }
  return handles;
}
