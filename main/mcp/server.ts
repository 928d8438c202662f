/**
 * The MCP server factory shared by HTTP and stdio. Everything that depends only on the
 * (immutable) config is computed once here; the factory itself, which runs once per HTTP
 * request, only builds a fresh McpServer and registers prepared handlers.
 */
import { McpServer, type CallToolResult, type McpServerFactory } from '@modelcontextprotocol/server';
import type { ComputerAdapter } from '../../adapter/computer-adapter.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import { SERVER_NAME, VERSION } from '../version.js';
import type { ErrorCode } from '../../adapter/errors.js';
import { DesktopPolicy } from '../policy/desktop.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { ReadWriteLock } from '../policy/read-write-lock.js';
import { ShellPolicy } from '../policy/shell.js';
import { withCachedJsonSchema } from './cached-schema.js';
import type { ToolDefinition, ToolDeps } from './tool.js';
import { mapToolError } from './tool-errors.js';
import { ALL_TOOLS } from './tools/index.js';

export interface ServerDeps {
  config: Readonly<Config>;
  adapter: ComputerAdapter;
  logger: Logger;
  /** Defaults to every known tool; tests may pass their own. */
  tools?: readonly ToolDefinition[];
  /** Told when each tool call starts and ends (the tray's activity view); must not throw. */
  observer?: ToolCallObserver;
  /** Files and folders no tool may touch whatever the roots say: the config in use and the app's folders (tokens, keys). */
  protectedFiles?: string[];
  /** Values scrubbed from every error and log line (the bearer token in use), besides server.token. */
  secrets?: readonly string[];
}

export type ToolCallEvent =
  | { phase: 'start'; tool: string; id: string | number; target: Record<string, unknown> }
  | { phase: 'end'; tool: string; id: string | number; target: Record<string, unknown>; durationMs: number; outcome: 'ok' | ErrorCode };

export type ToolCallObserver = (event: ToolCallEvent) => void;

interface PreparedTool {
  config: {
    title: string;
    description: string;
    inputSchema: ToolDefinition['input'];
    outputSchema: ToolDefinition['output'];
    annotations: ToolDefinition['annotations'];
  };
  handler: (args: Record<string, unknown>, ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) => Promise<CallToolResult>;
}

const instructions = (info: string) =>
  `These tools act on the owner's computer, limited to what the owner granted. Call ${info} first to see the allowed ` +
  'filesystem roots, commands and tool families. Paths are absolute or relative to the first root. A denied call says what is allowed.';

/** The name a tool is exposed under: the contract's dotted name, or with underscores for strict hosts. */
export function exposedName(name: string, config: Readonly<Config>): string {
  return config.server.toolNames === 'underscore' ? name.replace(/\./g, '_') : name;
}

export function enabledTools(config: Readonly<Config>, tools: readonly ToolDefinition[] = ALL_TOOLS): ToolDefinition[] {
  return tools.filter((tool) => tool.enabled(config));
}

export function createServerFactory(deps: ServerDeps): McpServerFactory {
  const tools = enabledTools(deps.config, deps.tools);
  const filesystem = new FilesystemPolicy(deps.config.filesystem, deps.adapter.inspect, { protectedFiles: deps.protectedFiles ?? [] });
  const policy = {
    filesystem,
    shell: new ShellPolicy(deps.config, filesystem, deps.adapter.inspect),
    fsLock: new ReadWriteLock(),
    desktop: new DesktopPolicy(deps.config, filesystem),
  };
  const names = tools.map((t) => exposedName(t.name, deps.config));
  const toolDeps: ToolDeps = { config: deps.config, adapter: deps.adapter, policy, enabledTools: names };
  const secrets = [deps.config.server.token ?? '', ...(deps.secrets ?? [])].filter(Boolean);
  const observe = deps.observer ?? (() => {});
  const prepared = tools.map((tool) => prepare(tool, toolDeps, deps.logger, secrets, observe));
  const serverInstructions = instructions(exposedName('system.info', deps.config));

  return () => {
    const server = new McpServer(
      { name: SERVER_NAME, version: VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: serverInstructions },
    );
    prepared.forEach(({ config, handler }, i) => server.registerTool(names[i]!, config, handler));
    return server;
  };
}

function prepare(tool: ToolDefinition, deps: ToolDeps, logger: Logger, secrets: readonly string[], observe: ToolCallObserver): PreparedTool {
  return {
    config: {
      title: tool.title,
      description: tool.description,
      inputSchema: withCachedJsonSchema(tool.input),
      outputSchema: withCachedJsonSchema(tool.output),
      annotations: tool.annotationsFor?.(deps.config) ?? tool.annotations,
    },
    async handler(args, ctx) {
      const started = performance.now();
      const id = ctx.mcpReq.id;
      const target = safeTarget(tool, args);
      safely(() => observe({ phase: 'start', tool: tool.name, id, target }));
      const finish = (outcome: 'ok' | ErrorCode, unexpected?: unknown) => {
        const durationMs = elapsed(started);
        const fields = { tool: tool.name, id, ...target, durationMs, outcome };
        if (unexpected === undefined) logger.info('tool call', fields);
        else logger.warn('tool call failed', { ...fields, error: describeUnknown(unexpected) });
        safely(() => observe({ phase: 'end', tool: tool.name, id, target, durationMs, outcome }));
      };
      try {
        const outcome = await tool.run(args, deps, ctx.mcpReq.signal);
        finish('ok');
        return {
          content: [...(outcome.content ?? []), { type: 'text', text: outcome.text }],
          structuredContent: outcome.structured as Record<string, unknown>,
        };
      } catch (error) {
        const mapped = mapToolError(error, tool.name, secrets);
        finish(mapped.code, mapped.code === 'OS_ERROR' ? error : undefined);
        return mapped.result;
      }
    },
  };
}

function safely(run: () => void): void {
  try {
    run();
  } catch {
    // an observer's failure must never fail the tool call
  }
}

function safeTarget(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  try {
    return tool.target?.(args) ?? {};
  } catch {
    return {};
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/** Only the error's class and errno-style code: messages can carry paths or values. */
function describeUnknown(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${error.name} (${code})` : error.name;
  }
  return typeof error;
}
