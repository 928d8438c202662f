/**
 * The MCP server factory shared by HTTP and stdio. Everything that depends only on the
 * (immutable) config is computed once here; the factory itself, which runs once per HTTP
 * request, only builds a fresh McpServer and registers prepared handlers.
 */
import { McpServer, type AuthInfo, type CallToolResult, type McpServerFactory, type ToolAnnotations } from '@modelcontextprotocol/server';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { Config } from '../config/schema.js';
import { scrubbingLogger, type Logger } from '../log.js';
import { SERVER_NAME, VERSION } from '../version.js';
import { isComputerAdapterError, type ErrorCode } from '../../adapter/contract/errors.js';
import { AppPolicy } from '../policy/apps.js';
import { DesktopPolicy } from '../policy/desktop.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { ChildLimiter, type AnswerBacklog } from '../policy/child-limiter.js';
import { PathLock } from '../policy/path-lock.js';
import { hiddenByReadOnly } from '../policy/read-only.js';
import { ProgramRunner, RIPGREP } from '../policy/program-runner.js';
import { ProcessPolicy } from '../policy/process.js';
import { SandboxPolicy } from '../policy/sandbox.js';
import { ServicePolicy } from '../policy/services.js';
import { SizeLimits } from '../policy/size-limits.js';
import { ShellPolicy } from '../policy/shell.js';
import { UrlPolicy } from '../policy/url-policy.js';
import { callerName, callerOf, type Caller } from './caller.js';
import { answerUngranted, otherCalls } from './not-granted.js';
import { toolInputSchema, toolOutputSchema } from './tool-schema.js';
import { fingerprint, toolFaces, type ContractFingerprint } from './contract-fingerprint.js';
import type { AuditReader, Policies, ToolDefinition, ToolDeps } from './tool.js';
import { mapToolError } from './tool-errors.js';
import { exposedName, toolNameRewriter, type ToolNameRewriter } from './tool-names.js';
import { ALL_TOOLS } from './tools/index.js';
import type { DirectTools } from './stdio-wire.js';

export interface ServerDeps {
  config: Readonly<Config>;
  adapter: ComputerAdapter;
  logger: Logger;
  /** Defaults to every known tool; tests may pass their own. */
  tools?: readonly ToolDefinition[];
  /** Told when each tool call starts and ends (the tray's activity view); must not throw. */
  observer?: ToolCallObserver;
  /** Told that a call ended, with nothing built for it (the idle memory trimmer); must not throw. */
  onCallEnded?: () => void;
  /** Files and folders no tool may touch whatever the roots say: the config in use and the app's folders (tokens, keys). */
  protectedFiles?: string[];
  /** fs.search may use ripgrep when it is on the PATH (default true; tests compare both engines). */
  useRipgrep?: boolean;
  /** Values scrubbed from every error and log line (the bearer token in use), besides server.token. */
  secrets?: readonly string[];
  /** The transport's unread answers: new commands wait while they pass ANSWER_BUDGET_OUTPUTS outputs. */
  answers?: AnswerBacklog;
  /** The audit log to read, for audit.recent and audit.search. */
  audit?: AuditReader;
}

/**
 * Unread answers allowed before a new command waits, in units of shell.maxOutputBytes: one
 * command's full text output, which an answer carries twice (structured result and text).
 */
const ANSWER_BUDGET_OUTPUTS = 2;

/**
 * `tool`: the contract name; `exposed`: the name the client called it by (server.toolNames).
 * `client`: who called in one name (an OAuth client's, "bearer token", the host's), null when unknown;
 * `caller`: the same, in full (caller.ts).
 */
type ToolCallFields = { tool: string; exposed?: string; id: string | number; target: Record<string, unknown>; client?: string | null; caller?: Caller };
export type ToolCallEvent = (ToolCallFields & { phase: 'start' }) | (ToolCallFields & { phase: 'end'; durationMs: number; outcome: 'ok' | ErrorCode });

export type ToolCallObserver = (event: ToolCallEvent) => void;

type HandlerContext = {
  mcpReq: { id: string | number; signal: AbortSignal; envelope?: Record<string, unknown> };
  http?: { authInfo?: AuthInfo };
};

interface PreparedTool {
  config: {
    title: string;
    description: string;
    inputSchema: ToolDefinition['input'];
    outputSchema: ToolDefinition['output'];
    annotations: ToolDefinition['annotations'];
  };
  handler: (args: Record<string, unknown>, ctx: HandlerContext) => Promise<CallToolResult>;
}

/**
 * ChatGPT keeps only the first 512 characters of the instructions: they say everything
 * essential within that (a test holds them to it).
 */
export const instructions = (info: string) =>
  `Tools that act on the owner's computer, only as far as the owner granted. Start with ${info}: it lists the shared folders ` +
  '(roots), allowed commands and enabled tools. Paths are absolute or relative to the first root. A refused call names what is ' +
  'allowed; a tool that is not granted says which setting grants it. Results are structured; prefer exact edits and reading ' +
  'only what you need.';

export { exposedName } from './tool-names.js';

export function enabledTools(config: Readonly<Config>, tools: readonly ToolDefinition[] = ALL_TOOLS): ToolDefinition[] {
  return tools.filter((tool) => tool.grant.granted(config) && !hiddenByReadOnly(config, annotationsOf(tool, config)));
}

export function annotationsOf(tool: ToolDefinition, config: Readonly<Config>): ToolAnnotations {
  return tool.annotationsFor?.(config) ?? tool.annotations;
}

/**
 * The per-request factory, the policies it was built with (the tray's panels use the same
 * objects), and the granted tools by exposed name for the stdio wire's shortcut (stdio-wire.ts).
 */
export type ServerFactory = McpServerFactory & { readonly policies: Policies; readonly directTools: DirectTools; contract(): ContractFingerprint };

export function createServerFactory(deps: ServerDeps): ServerFactory {
  const tools = enabledTools(deps.config, deps.tools);
  const filesystem = new FilesystemPolicy(deps.config.filesystem, deps.adapter.inspect, { protectedFiles: deps.protectedFiles ?? [] });
  // Throws SandboxUnavailableError when the sandbox the config asks for cannot be had here.
  const sandbox = new SandboxPolicy(deps.config, filesystem, deps.adapter.inspect);
  const shell = new ShellPolicy(deps.config, filesystem, deps.adapter.inspect, undefined, sandbox);
  const useRipgrep = deps.useRipgrep ?? true;
  const policy: Policies = {
    filesystem,
    sandbox,
    shell,
    fsLock: new PathLock(),
    programs: new ProgramRunner(shell, filesystem, deps.adapter.inspect, sandbox, (spec) => spec !== RIPGREP || useRipgrep),
    desktop: new DesktopPolicy(deps.config, filesystem),
    ...otherPolicies(deps.config, deps.adapter.inspect, deps.answers),
  };
  const names = tools.map((t) => exposedName(t.name, deps.config));
  let contract: ContractFingerprint | undefined;
  // Computed on first use (system.info, config check, the tray): the schemas' JSON is made then.
  const contractOf = () =>
    (contract ??= fingerprint(
      toolFaces(
        prepared.map((p, i) => ({
          name: names[i]!,
          inputSchema: p.config.inputSchema,
          outputSchema: p.config.outputSchema,
          annotations: p.config.annotations,
        })),
      ),
    ));
  const toolDeps: ToolDeps = { config: deps.config, adapter: deps.adapter, policy, enabledTools: names, contract: contractOf, audit: deps.audit };
  const secrets = [deps.config.server.token ?? '', ...(deps.secrets ?? [])].filter(Boolean);
  const observe = deps.observer;
  const logger = scrubbingLogger(deps.logger, secrets);
  // Every known tool, granted or not: a description may point to one the owner has not granted.
  const rename = toolNameRewriter(
    [...ALL_TOOLS, ...(deps.tools ?? [])].map((t) => t.name),
    deps.config.server.toolNames,
  );
  const ended = deps.onCallEnded;
  // stdio makes one server per process: after a 2025-era initialize, its clientInfo names the host.
  let stdioServer: McpServer | undefined;
  const initialized = () => stdioServer?.server.getClientVersion();
  const prepared = tools.map((tool, i) => prepare(tool, { deps: toolDeps, logger, secrets, observe, ended, rename, exposed: names[i]!, initialized }));
  const serverInstructions = instructions(exposedName('system.info', deps.config));
  const granted = new Set(tools.map((t) => t.name));
  const calls = otherCalls(deps.tools ?? ALL_TOOLS, granted, deps.config);

  const factory = () => {
    const server = new McpServer(
      { name: SERVER_NAME, version: VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: serverInstructions },
    );
    prepared.forEach(({ config, handler }, i) => server.registerTool(names[i]!, config, handler));
    answerUngranted(server, calls, deps.config);
    // Only the first: stdio has no other, and HTTP (which never asks) keeps no request's server alive.
    stdioServer ??= server;
    return server;
  };
  const directTools: DirectTools = new Map(
    prepared.map(({ config, handler }, i) => [names[i]!, { input: config.inputSchema, output: config.outputSchema, handler }]),
  );
  return Object.assign(factory, { policies: policy, directTools, contract: contractOf });
}

/** The policies that do not depend on the filesystem policy, each built once per config. */
function otherPolicies(
  config: Readonly<Config>,
  port: ComputerAdapter['inspect'],
  answers: AnswerBacklog | undefined,
): Omit<Policies, 'filesystem' | 'sandbox' | 'shell' | 'fsLock' | 'programs' | 'desktop'> {
  return {
    process: new ProcessPolicy(config, port),
    apps: new AppPolicy(config),
    services: new ServicePolicy(config),
    urls: new UrlPolicy(config.desktop.browserUrls),
    children: childLimiter(config, answers),
    sizes: new SizeLimits(config),
  };
}

function childLimiter(config: Readonly<Config>, answers: AnswerBacklog | undefined): ChildLimiter {
  const backlog = answers && { answers, budgetBytes: ANSWER_BUDGET_OUTPUTS * config.shell.maxOutputBytes };
  return new ChildLimiter(config.shell.maxConcurrent, { backlog });
}

interface PrepareContext {
  deps: ToolDeps;
  logger: Logger;
  secrets: readonly string[];
  observe: ToolCallObserver | undefined;
  ended: (() => void) | undefined;
  /** Tool names in the texts a model reads, as this config exposes them. */
  rename: ToolNameRewriter;
  exposed: string;
  /** The clientInfo of a 2025-era stdio connection's initialize. */
  initialized: () => { name?: unknown; version?: unknown } | undefined;
}

function prepare(tool: ToolDefinition, { deps, logger, secrets, observe, ended, rename, exposed, initialized }: PrepareContext): PreparedTool {
  // Only a rewriter that renames anything gets to copy the schemas' descriptions.
  const text = rename.renames ? (t: string) => rename.rewrite(t) : undefined;
  return {
    config: {
      title: rename.rewrite(tool.title),
      description: rename.rewrite(tool.description),
      inputSchema: toolInputSchema(tool.input, text),
      outputSchema: toolOutputSchema(tool.output, text),
      annotations: annotationsOf(tool, deps.config),
    },
    async handler(args, ctx) {
      const started = performance.now();
      const id = ctx.mcpReq.id;
      // Built only for a listener: with logging off and no activity view, a call pays for neither.
      let target: Record<string, unknown> | undefined;
      const targetOf = () => (target ??= safeTarget(tool, args));
      // Over HTTP the credential names the caller; without one, only stdio's own server knows the host.
      const caller = observe ? callerOf(ctx.http?.authInfo, ctx.mcpReq.envelope, ctx.http ? () => undefined : initialized) : undefined;
      const client = caller ? callerName(caller) : null;
      if (observe) safely(() => observe({ phase: 'start', tool: tool.name, exposed, id, target: targetOf(), client, caller }));
      const finish = (outcome: 'ok' | ErrorCode, unexpected?: unknown, operation?: string) => {
        const durationMs = elapsed(started);
        if (logger.enabled(unexpected === undefined ? 'info' : 'warn')) {
          // Which step refused or failed (runCommand, killProcess, service.control...) when it is not the tool itself.
          // The name as clients call it (fs_read), so a log line matches what the model sent.
          const fields = { tool: exposed, id, ...targetOf(), durationMs, outcome, ...(operation && operation !== tool.name ? { operation } : {}) };
          if (unexpected === undefined) logger.info('tool call', fields);
          else logger.warn('tool call failed', { ...fields, error: describeUnknown(unexpected) });
        }
        if (observe) safely(() => observe({ phase: 'end', tool: tool.name, exposed, id, target: targetOf(), client, caller, durationMs, outcome }));
        if (ended) safely(ended);
      };
      try {
        const outcome = await tool.run(args, deps, ctx.mcpReq.signal);
        // A command stopped at its deadline answers normally, but did not do its job.
        finish((outcome.structured as { timedOut?: unknown } | undefined)?.timedOut === true ? 'TIMEOUT' : 'ok');
        // The server's hints in the text, not the data in it: names the call or its result carries stay.
        const summary = rename.rewrite(outcome.text, args, outcome.structured);
        return {
          content: [...(outcome.content ?? []), { type: 'text', text: summary }],
          structuredContent: outcome.structured as Record<string, unknown>,
        };
      } catch (error) {
        const mapped = mapToolError(error, exposed, secrets);
        finish(mapped.code, mapped.code === 'OS_ERROR' ? error : undefined, isComputerAdapterError(error) ? error.operation : undefined);
        const content = mapped.result.content.map((c) => (c.type === 'text' ? { ...c, text: rename.rewrite(c.text, args) } : c));
        return { ...mapped.result, content };
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
