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
import type { ToolDefinition, ToolDeps } from './tool.js';
import { mapToolError } from './tool-errors.js';
import { ALL_TOOLS } from './tools/index.js';

export interface ServerDeps {
  config: Readonly<Config>;
  adapter: ComputerAdapter;
  logger: Logger;
  /** Defaults to every known tool; tests may pass their own. */
  tools?: readonly ToolDefinition[];
}

interface PreparedTool {
  tool: ToolDefinition;
  config: { title: string; description: string; inputSchema: ToolDefinition['input']; outputSchema: ToolDefinition['output']; annotations: ToolDefinition['annotations'] };
  handler: (args: Record<string, unknown>, ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) => Promise<CallToolResult>;
}

const INSTRUCTIONS =
  'These tools act on the owner\'s computer, limited to what the owner granted. Call system.info first to see the allowed ' +
  'filesystem roots, commands and tool families. Paths are absolute or relative to the first root. A denied call says what is allowed.';

export function enabledTools(config: Readonly<Config>, tools: readonly ToolDefinition[] = ALL_TOOLS): ToolDefinition[] {
  return tools.filter((tool) => tool.enabled(config));
}

export function createServerFactory(deps: ServerDeps): McpServerFactory {
  const tools = enabledTools(deps.config, deps.tools);
  const toolDeps: ToolDeps = { config: deps.config, adapter: deps.adapter, enabledTools: tools.map((t) => t.name) };
  const secrets = [deps.config.server.token ?? ''].filter(Boolean);
  const prepared = tools.map((tool) => prepare(tool, toolDeps, deps.logger, secrets));

  return () => {
    const server = new McpServer({ name: SERVER_NAME, version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    for (const { tool, config, handler } of prepared) server.registerTool(tool.name, config, handler);
    return server;
  };
}

function prepare(tool: ToolDefinition, deps: ToolDeps, logger: Logger, secrets: readonly string[]): PreparedTool {
  return {
    tool,
    config: { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations },
    async handler(args, ctx) {
      const started = performance.now();
      const base = { tool: tool.name, id: ctx.mcpReq.id, ...safeTarget(tool, args) };
      try {
        const outcome = await tool.run(args, deps, ctx.mcpReq.signal);
        logger.info('tool call', { ...base, durationMs: elapsed(started), outcome: 'ok' });
        return {
          content: [...(outcome.content ?? []), { type: 'text', text: outcome.text }],
          structuredContent: outcome.structured as Record<string, unknown>,
        };
      } catch (error) {
        const mapped = mapToolError(error, tool.name, secrets);
        const fields = { ...base, durationMs: elapsed(started), outcome: mapped.code };
        if (mapped.code === 'OS_ERROR') logger.warn('tool call failed', { ...fields, error: describeUnknown(error) });
        else logger.info('tool call', fields);
        return mapped.result;
      }
    },
  };
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
