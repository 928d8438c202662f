/**
 * What the gateway exposes of its upstreams, worked out from what each one lists (or, while a
 * lazy one sleeps, what the owner accepted of it): the excluded tools left out, held ones left
 * out, every other one under its portable `<prefix>_<tool>` name (or refused, naming the entry),
 * its annotations as the upstream policy settles them, and the arguments it takes paths in.
 */
import type { ToolAnnotations, UpstreamPolicy } from '../policy/upstream.js';
import { exposedToolName } from './exposed-names.js';
import type { Catalog } from './catalog-pins.js';
import type { HeldTool, ToolDefinition } from './pin-store.js';

/** An upstream tool as the tool host registers it. */
export interface GatewayTool {
  exposed: string;
  upstream: string;
  /** Its name at the upstream. */
  tool: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
  pathArguments: string[];
}

export interface GatewayPrompt {
  exposed: string;
  upstream: string;
  prompt: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface GatewayResource {
  upstream: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
}

export interface GatewayResourceTemplate {
  upstream: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One upstream's part: the definitions to expose (live or pinned) and its policy. */
export interface UpstreamView {
  name: string;
  prefix: string;
  policy: UpstreamPolicy;
  definitions: readonly ToolDefinition[];
  held: ReadonlyArray<HeldTool & { name: string }>;
  catalog: Catalog | undefined;
}

export interface Exposure {
  tools: GatewayTool[];
  prompts: GatewayPrompt[];
  resources: GatewayResource[];
  resourceTemplates: GatewayResourceTemplate[];
  /** Per upstream: tools refused (names), with why. */
  refused: Map<string, string[]>;
  /** Tools held until the owner accepts them, by the name they would have. */
  held: Array<{ exposed: string; upstream: string; tool: string; reason: HeldTool['reason'] }>;
}

/** `reserved`: the built-in tool names (both styles) an upstream tool may not take. */
export function expose(views: readonly UpstreamView[], reserved: readonly string[]): Exposure {
  const taken = new Map<string, string>(reserved.map((name) => [name, 'a built-in tool']));
  const out: Exposure = { tools: [], prompts: [], resources: [], resourceTemplates: [], refused: new Map(), held: [] };
  // A URI two upstreams both list is served by neither (resources are addressed by URI alone: either could answer reads meant for the other).
  const listedBy = new Map<string, string[]>();
  const servedUris = new Set<string>();
  for (const view of views)
    for (const resource of view.catalog?.resources ?? []) listedBy.set(String(resource.uri), [...(listedBy.get(String(resource.uri)) ?? []), view.name]);
  // Prompts and templates are registered by name: two that come out the same would fail every session, so the first keeps it.
  const promptNames = new Map<string, string>();
  const templateNames = new Set<string>();
  for (const view of views) {
    const refused: string[] = [];
    for (const definition of view.definitions) {
      if (view.policy.isExcluded(definition.name)) continue;
      const naming = exposedToolName(view.prefix, view.name, definition.name, taken);
      if ('refused' in naming) {
        refused.push(naming.refused);
        continue;
      }
      taken.set(naming.exposed, `${view.name}'s tool "${definition.name}"`);
      out.tools.push({
        exposed: naming.exposed,
        upstream: view.name,
        tool: definition.name,
        ...(definition.title === undefined ? {} : { title: definition.title }),
        description: definition.description ?? '',
        inputSchema: definition.inputSchema,
        ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
        annotations: view.policy.annotations(definition.name, definition.annotations as ToolAnnotations | undefined),
        ...(definition._meta ? { _meta: definition._meta } : {}),
        pathArguments: view.policy.pathArguments(definition.name, definition.inputSchema),
      });
    }
    for (const held of view.held) {
      const naming = exposedToolName(view.prefix, view.name, held.name, taken);
      if (!('refused' in naming)) out.held.push({ exposed: naming.exposed, upstream: view.name, tool: held.name, reason: held.reason });
    }
    const catalog = view.catalog;
    for (const prompt of catalog?.prompts ?? []) {
      const naming = exposedToolName(view.prefix, view.name, String(prompt.name), promptNames);
      if ('refused' in naming) {
        refused.push(naming.refused.replace('the tool', 'the prompt'));
        continue;
      }
      promptNames.set(naming.exposed, `${view.name}'s prompt "${String(prompt.name)}"`);
      out.prompts.push({
        exposed: naming.exposed,
        upstream: view.name,
        prompt: String(prompt.name),
        ...pick(prompt, 'title', 'description'),
        arguments: Array.isArray(prompt.arguments) ? (prompt.arguments as GatewayPrompt['arguments']) : [],
      });
    }
    for (const resource of catalog?.resources ?? []) {
      const uri = String(resource.uri);
      const others = listedBy.get(uri)!.filter((name) => name !== view.name);
      if (others.length > 0) {
        refused.push(`resource ${uri}: ${[...new Set(others)].join(' and ')} lists it too, so neither serves it`);
        continue;
      }
      // Listed twice by the one upstream: registered once.
      if (servedUris.has(uri)) continue;
      servedUris.add(uri);
      out.resources.push({ upstream: view.name, uri, name: String(resource.name ?? uri), ...pick(resource, 'title', 'description', 'mimeType', '_meta') });
    }
    for (const template of catalog?.resourceTemplates ?? []) {
      const name = `${view.prefix}_${String(template.name ?? 'template')}`;
      const uriTemplate = String(template.uriTemplate);
      if (templateNames.has(name)) {
        refused.push(`resource template "${String(template.name)}": another one is named ${name}`);
        continue;
      }
      templateNames.add(name);
      out.resourceTemplates.push({
        upstream: view.name,
        uriTemplate,
        name,
        ...pick(template, 'title', 'description', 'mimeType'),
      });
    }
    if (refused.length > 0) out.refused.set(view.name, refused);
  }
  return out;
}

function pick<K extends string>(from: Record<string, unknown>, ...keys: K[]): Partial<Record<K, never>> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out as Partial<Record<K, never>>;
}

/** Why a held tool's call is refused, and how the owner accepts it. */
export function heldMessage(upstream: string, tool: string, reason: HeldTool['reason']): string {
  const accept = `(the tray, or "chatgpt-mcp gateway show ${upstream}", then "gateway accept")`;
  return reason === 'changed'
    ? `${upstream} changed the tool "${tool}" since the owner accepted it, so it is held until the owner accepts the change ${accept}`
    : `${upstream} lists a new tool "${tool}", held until the owner accepts it ${accept}`;
}
