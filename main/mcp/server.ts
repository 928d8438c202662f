/**
 * The MCP server factory shared by HTTP and stdio. Everything that depends only on the
 * (immutable) config is computed once here; the factory itself, which runs once per HTTP
 * request, only builds a fresh McpServer and registers prepared handlers.
 */
import { McpServer, type AuthInfo, type McpRequestContext, type McpServerFactory, type ToolAnnotations } from '@modelcontextprotocol/server';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { Config } from '../config/schema.js';
import { scrubbingLogger, type Logger } from '../log.js';
import { SERVER_NAME, VERSION } from '../version.js';
import { AppPolicy } from '../policy/apps.js';
import { DesktopPolicy } from '../policy/desktop.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { GitPolicy } from '../policy/git.js';
import { ChecksPolicy } from '../policy/checks.js';
import { ChildLimiter, type AnswerBacklog } from '../policy/child-limiter.js';
import { PathLock } from '../policy/path-lock.js';
import { ProgramRunner, RIPGREP } from '../policy/program-runner.js';
import { ProcessPolicy } from '../policy/process.js';
import { SandboxPolicy } from '../policy/sandbox.js';
import { ServicePolicy } from '../policy/services.js';
import { SizeLimits } from '../policy/size-limits.js';
import { ShellPolicy } from '../policy/shell.js';
import { UrlPolicy } from '../policy/url-policy.js';
import { answerUngranted, gatewayCalls, otherCalls, type OtherCalls } from './not-granted.js';
import { NOT_RECORDED } from './change-recorder.js';
import { ChangeRecording } from './change-journal.js';
import type { ChangeJournal } from '../../adapter/contract/journal.js';
import { toolInputSchema, toolOutputSchema } from './tool-schema.js';
import { fingerprint, toolFaces, type ContractFingerprint } from './contract-fingerprint.js';
import type { AuditReader, Policies, ToolDefinition, ToolDeps } from './tool.js';
import { exposedAs, exposedName, toolNameRewriter } from './tool-names.js';
import { gatewayRegistrar, WithGatewayTools } from './gateway-tools.js';
import { credentialOf, envelopeClientName } from './caller.js';
import { clientOf, describeUnknown, recorded, type CallHandler, type RecordContext, type ToolCallObserver } from './recorded-call.js';
import type { Gateway } from '../gateway/gateway.js';
import { openGateway } from './open-gateway.js';
import { ALL_TOOLS } from './tools/index.js';
import type { DirectTools } from './stdio-wire.js';
import { hiddenByReadOnly, readOnlyGatewayRefusal } from '../policy/read-only.js';
import { ProfilePolicy, type CallerProfile } from '../policy/profiles.js';
import { AnswerStore } from './answer/answer-store.js';
import { fitAnswer, type ServerFit } from './answer/answer-budget.js';
import { budgetInput, budgetOutput, NOTE_FIELD } from './answer/budget-schema.js';
import { shapeFor, type Caller } from './answer/caller-shape.js';
import { registerViews, servedViews, viewMeta, withViewData } from './views.js';

export type { ToolCallEvent, ToolCallObserver } from './recorded-call.js';

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
  /** Where cut answers keep what they left out (default: one sized by ANSWER_STORE_CHARS). */
  answerStore?: AnswerStore;
  /** Where the gateway keeps its pins and reads its secrets (the app folder); without it, gateway.servers are not served. */
  gatewayDir?: string;
  /** Where changes are recorded for the owner's undo (with undo.enabled); none: nothing is recorded. */
  journal?: ChangeJournal;
  /** The audit log to read, for audit.recent and audit.search. */
  audit?: AuditReader;
}

/** How long the first requests wait for upstreams started at start (Gateway.settled). */
const GATEWAY_GRACE_MS = 5000;

/**
 * Unread answers allowed before a new command waits, in units of shell.maxOutputBytes: one
 * command's full text output, which an answer carries twice (structured result and text).
 */
const ANSWER_BUDGET_OUTPUTS = 2;

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
  const granted = tools.filter((tool) => tool.grant.granted(config) && !hiddenByReadOnly(config, annotationsOf(tool, config)));
  // answer.more reads back what a long answer left out: listed only beside a tool whose answers can be long, under a budget.
  const long = granted.some((tool) => tool.payload && tool.name !== 'answer.more') || config.gateway.servers.some((entry) => entry.enabled);
  return long && config.server.answerBudgetTokens > 0 ? granted : granted.filter((tool) => tool.name !== 'answer.more');
}

export function annotationsOf(tool: ToolDefinition, config: Readonly<Config>): ToolAnnotations {
  return tool.annotationsFor?.(config) ?? tool.annotations;
}

/**
 * The per-request factory, the policies it was built with (the tray's panels use the same
 * objects), and the granted tools by exposed name for the stdio wire's shortcut (stdio-wire.ts).
 */
export type ServerFactory = McpServerFactory & {
  readonly policies: Policies;
  readonly directTools: DirectTools;
  readonly gateway: Gateway | null;
  contract(): ContractFingerprint;
};

export function createServerFactory(deps: ServerDeps): ServerFactory {
  const tools = enabledTools(deps.config, deps.tools);
  const filesystem = new FilesystemPolicy(deps.config.filesystem, deps.adapter.inspect, { protectedFiles: deps.protectedFiles ?? [] });
  // Throws SandboxUnavailableError when the sandbox the config asks for cannot be had here.
  const sandbox = new SandboxPolicy(deps.config, filesystem, deps.adapter.inspect);
  void sandbox.rememberRepositories();
  const shell = new ShellPolicy(deps.config, filesystem, deps.adapter.inspect, undefined, sandbox);
  const useRipgrep = deps.useRipgrep ?? true;
  const programs = new ProgramRunner(shell, filesystem, deps.adapter.inspect, sandbox, (spec) => spec !== RIPGREP || useRipgrep);
  const policy: Policies = {
    filesystem,
    sandbox,
    shell,
    fsLock: new PathLock(),
    programs,
    desktop: new DesktopPolicy(deps.config, filesystem),
    git: new GitPolicy(deps.config, filesystem, programs, deps.adapter.inspect),
    checks: new ChecksPolicy(deps.config, filesystem, programs),
    ...otherPolicies(deps.config, deps.adapter.inspect, deps.answers),
  };
  const names = tools.map((t) => exposedName(t.name, deps.config));
  const secrets = [deps.config.server.token ?? '', ...(deps.secrets ?? [])].filter(Boolean);
  const observe = deps.observer;
  const logger = scrubbingLogger(deps.logger, secrets);
  // Every known tool, granted or not: a description may point to one the owner has not granted.
  const known = [...ALL_TOOLS, ...(deps.tools ?? [])].map((t) => t.name);
  const rename = toolNameRewriter(known, deps.config.server.toolNames);
  const ended = deps.onCallEnded;
  const gateway = openGateway(deps, filesystem, [...known, ...known.map((n) => exposedAs(n, 'underscore'))], logger);
  const answers = deps.answerStore ?? new AnswerStore();
  const fit: ServerFit = { store: answers, moreTool: exposedName('answer.more', deps.config), budget: deps.config.server.answerBudgetTokens || Infinity };
  // stdio makes one server per process: after a 2025-era initialize, its clientInfo names the host (the audit's caller).
  let stdioServer: McpServer | undefined;
  const initialized = () => stdioServer?.server.getClientVersion();
  const profiles = new ProfilePolicy(deps.config);
  // The audit line and the activity view name the profile each call was made under.
  const profileOf = (auth: AuthInfo | undefined) => profiles.of(credentialOf(auth)).name;
  const upstreams = gateway && gatewayRegistrar(gateway, { logger, secrets, observe, ended, rename, initialized, profileOf }, fit);
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
  const toolDeps: ToolDeps = {
    config: deps.config,
    adapter: deps.adapter,
    policy,
    enabledTools: names,
    contract: contractOf,
    answers,
    changes: NOT_RECORDED,
    audit: deps.audit,
    ...(gateway ? { upstreams: () => gateway.status() } : {}),
  };
  const recording =
    deps.journal && deps.config.undo.enabled
      ? new ChangeRecording(deps.journal, deps.config.undo, deps.adapter.git, (error) =>
          logger.warn('change journal failed', { error: describeUnknown(error) }),
        )
      : undefined;
  const views = servedViews(new Map(tools.map((t, i) => [t.name, names[i]!])), (name) => exposedName(name, deps.config));
  const viewOf = new Map(views.flatMap((view) => view.tools.map((tool) => [tool, viewMeta(view)] as const)));
  const surfaceOf = profileSurfaces(profiles, tools, deps);
  // system.info lists the tools of the caller's profile, not every granted one.
  const enabledFor = (auth: AuthInfo | undefined) => names.filter((_, i) => surfaceOf(credentialOf(auth)).allowed[i]);
  const prepared = tools.map((tool, i) =>
    prepare(tool, {
      deps: toolDeps,
      fit,
      logger,
      secrets,
      observe,
      ended,
      rename,
      exposed: names[i]!,
      recording,
      initialized,
      profileOf,
      hasView: viewOf.has(names[i]!),
      enabledFor,
    }),
  );
  const serverInstructions = instructions(exposedName('system.info', deps.config));

  const build = (request?: McpRequestContext) => {
    const server = new McpServer(
      { name: SERVER_NAME, version: VERSION },
      { capabilities: { tools: { listChanged: gateway !== null }, ...upstreams?.capabilities() }, instructions: serverInstructions },
    );
    const caller = answerCallerOf(server, request);
    // The credential on this request picks the profile: only its tools are listed and callable.
    const surface = surfaceOf(credentialOf(request?.authInfo));
    prepared.forEach(({ config, handler }, i) => {
      if (!surface.allowed[i]) return;
      const _meta = viewOf.get(names[i]!);
      server.registerTool(names[i]!, _meta ? { ...config, _meta } : config, (args, ctx) => handler(args, { ...ctx, caller: caller(ctx) }));
    });
    registerViews(server, views);
    if (surface.gateway) upstreams?.register(server, caller);
    const gatewayCall =
      upstreams && gatewayCalls((name) => upstreams.direct(name) !== undefined, surface.gateway ? undefined : surface.gatewayRefusal, upstreams.heldRefusal);
    answerUngranted(server, { ...surface.calls, ...(gatewayCall ? { gateway: gatewayCall } : {}) }, deps.config);
    // Only the first: stdio has no other, and HTTP (which never asks) keeps no request's server alive.
    stdioServer ??= server;
    return server;
  };
  // With upstreams, the first requests wait until those started at start have listed their tools, a few seconds at most.
  const factory = gateway ? async (request?: McpRequestContext) => (await gateway.settled(GATEWAY_GRACE_MS), build(request)) : build;
  // A stdio host keeps its connection and its list: it is told when the upstreams' tools change (HTTP hosts list again per request).
  gateway?.watch(() => stdioServer && upstreams?.refresh(stdioServer));
  // stdio has one profile, the active one.
  const stdio = surfaceOf({ kind: 'none' });
  const builtIn = prepared.flatMap(({ config, handler }, i) =>
    stdio.allowed[i] ? [[names[i]!, { input: config.inputSchema, output: config.outputSchema, handler }] as const] : [],
  );
  const directTools: DirectTools = upstreams && stdio.gateway ? new WithGatewayTools(builtIn, upstreams) : new Map(builtIn);
  return Object.assign(factory, { policies: policy, directTools, gateway, contract: contractOf });
}

/** What one profile exposes: which granted tools, the gateway's or not, and how its other calls are answered. */
interface ProfileSurface {
  allowed: boolean[];
  gateway: boolean;
  /** The refusal of another MCP server's tool when the profile has no gateway. */
  gatewayRefusal: (exposed: string) => string;
  calls: OtherCalls;
}

/** Each caller's surface, worked out once per profile and source (they word its refusals). */
function profileSurfaces(
  profiles: ProfilePolicy,
  tools: readonly ToolDefinition[],
  deps: ServerDeps,
): (credential: Parameters<ProfilePolicy['of']>[0]) => ProfileSurface {
  const made = new Map<string, ProfileSurface>();
  const granted = new Set(tools.map((t) => t.name));
  const surface = (caller: CallerProfile): ProfileSurface => {
    const allowed = tools.map((tool) => profiles.allows(caller.profile, tool.grant, annotationsOf(tool, deps.config)));
    const inProfile = new Set(tools.filter((_, i) => allowed[i]).map((t) => t.name));
    const outside = (tool: ToolDefinition, exposed: string) => (granted.has(tool.name) ? profiles.refusal(exposed, caller) : undefined);
    return {
      allowed,
      // Paused writes hide the other servers' tools whole, as a read-only profile does: their annotations are their own claim.
      gateway: profiles.allowsGateway(caller.profile) && !deps.config.server.readOnly,
      gatewayRefusal: (exposed) =>
        deps.config.server.readOnly && profiles.allowsGateway(caller.profile) ? readOnlyGatewayRefusal(exposed) : profiles.gatewayRefusal(exposed, caller),
      calls: otherCalls(deps.tools ?? ALL_TOOLS, inProfile, deps.config, outside),
    };
  };
  return (credential) => {
    const caller = profiles.of(credential);
    const key = `${caller.name}\0${caller.source}`;
    let found = made.get(key);
    if (!found) made.set(key, (found = surface(caller)));
    return found;
  };
}

/** The policies that do not depend on the filesystem policy, each built once per config. */
function otherPolicies(
  config: Readonly<Config>,
  port: ComputerAdapter['inspect'],
  answers: AnswerBacklog | undefined,
): Omit<Policies, 'filesystem' | 'sandbox' | 'shell' | 'fsLock' | 'programs' | 'desktop' | 'git' | 'checks'> {
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

interface PreparedTool {
  config: {
    title: string;
    description: string;
    inputSchema: ToolDefinition['input'];
    outputSchema: ToolDefinition['output'];
    annotations: ToolDefinition['annotations'];
  };
  handler: CallHandler;
}

interface PrepareContext extends RecordContext {
  deps: ToolDeps;
  fit: ServerFit;
  /** Records the changes of the tools that make them (undo.*). */
  recording: ChangeRecording | undefined;
  /** The tool has an MCP Apps view, which needs the whole structured result. */
  hasView: boolean;
  /** The tools exposed to the caller with these credentials (its profile's). */
  enabledFor: (auth: AuthInfo | undefined) => string[];
}

function prepare(tool: ToolDefinition, context: PrepareContext): PreparedTool {
  const { deps, rename, fit, recording } = context;
  // Only a rewriter that renames anything gets to copy the schemas' descriptions.
  const text = rename.renames ? (t: string) => rename.rewrite(t) : undefined;
  // Infinity: no budget; answers keep their shape (the payload once), whole.
  const { budget } = fit;
  const payload = tool.payload;
  return {
    config: {
      title: rename.rewrite(tool.title),
      description: rename.rewrite(tool.description),
      inputSchema: toolInputSchema(payload && budget !== Infinity ? budgetInput(tool.input, budget) : tool.input, text) as ToolDefinition['input'],
      outputSchema: toolOutputSchema(budgetOutput(tool.output, payload), text) as ToolDefinition['output'],
      annotations: annotationsOf(tool, deps.config),
    },
    handler: recorded(
      context,
      tool.name,
      (args) => safeTarget(tool, args),
      async (args, ctx) => {
        const { maxTokens, ...toolArgs } = args;
        const call = { budget: typeof maxTokens === 'number' ? maxTokens : budget };
        // Recorded for undo under the caller's credential (an OAuth client, the bearer token).
        const callerDeps = { ...deps, enabledTools: context.enabledFor(ctx.http?.authInfo) };
        const toolDeps = recording ? recording.depsFor(tool.name, clientOf(ctx.http?.authInfo), callerDeps) : callerDeps;
        const outcome = await tool.run(payload ? toolArgs : args, toolDeps, ctx.mcpReq.signal, call);
        // The server's hints in the text, not the data in it: names the call or its result carries stay.
        const summary = rename.rewrite(outcome.text, args, outcome.structured);
        const whole = {
          content: [...(outcome.content ?? []), { type: 'text' as const, text: summary }],
          structuredContent: outcome.structured as Record<string, unknown>,
        };
        const shape = shapeFor(ctx.caller);
        const fitted = await fitAnswer(whole, { ...fit, payload, noteField: NOTE_FIELD, budget: call.budget, shape });
        return context.hasView ? withViewData(fitted, whole.structuredContent, shape) : fitted;
      },
    ),
  };
}

/** Who calls, from what a call carries: the envelope's or initialize's clientInfo, the User-Agent, the OAuth client. */
function answerCallerOf(server: McpServer, request: McpRequestContext | undefined): (ctx: Parameters<CallHandler>[1]) => Caller {
  const userAgent = request?.requestInfo?.headers.get('user-agent') ?? undefined;
  return (ctx) => ({
    clientName: envelopeClientName(ctx.mcpReq.envelope) ?? server.server.getClientVersion()?.name,
    userAgent,
    authClient: clientOf(ctx.http?.authInfo),
  });
}

function safeTarget(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  try {
    return tool.target?.(args) ?? {};
  } catch {
    return {};
  }
}
