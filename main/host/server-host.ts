/**
 * The one place a server is built: the adapter, the policies (through the server factory), the
 * files no tool may touch, the secrets scrubbed from every answer and log line, the reply
 * backlog, the idle memory trimmer and the transport. `serve --http`, `serve --stdio`,
 * `tunnel start`, `tunnel doctor` and the tray app all call `openServer`, so what one entry
 * point protects, every entry point protects.
 *
 * Failures are thrown as they are (ListenError, SandboxUnavailableError, a token file that
 * cannot be used, an app folder that is not the owner's alone); each entry point words them its
 * own way (exit codes, the tray's status).
 */
import { AuditLog } from '../audit/audit-log.js';
import { auditDir } from '../audit/audit-files.js';
import { searchAuditLog } from '../audit/audit-query.js';
import { targetText } from '../audit/redacted-target.js';
import { createLocalAdapter, type LocalAdapterOptions } from '../../adapter/local-computer-adapter.js';
import { prepareWindowsJob } from '../../adapter/process/windows-job.js';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import type { ConsentRequest } from '../auth/connections.js';
import type { Config } from '../config/schema.js';
import { secureAppFolder } from '../config/owned-state.js';
import { configTokenExposure, rootWarning } from '../config/file-exposure.js';
import { ensureBearerToken, TokenFileError, type BearerToken } from '../config/token.js';
import { cliHint, publicCliHint } from '../command-name.js';
import { createLogger, scrubbingLogger, type Logger } from '../log.js';
import { ReplyBacklog } from '../mcp/reply-backlog.js';
import { createServerFactory, enabledTools, type ServerFactory, type ToolCallObserver } from '../mcp/server.js';
import type { ContractFingerprint } from '../mcp/contract-fingerprint.js';
import type { AuditReader, Policies } from '../mcp/tool.js';
import type { Gateway } from '../gateway/gateway.js';
import { idleMemory } from './idle-memory.js';
import { protectedPaths, stateDir } from './places.js';
import { openJournal } from '../undo/undo-service.js';
import type { ChangeJournal } from '../../adapter/contract/journal.js';

export interface HostOptions {
  config: Readonly<Config>;
  /** The config file in use (it need not exist): no tool may touch it. */
  configPath: string;
  /** The file the config was read from, for the start log (null: defaults). */
  configFile?: string | null;
  transport: 'http' | 'stdio';
  /** Where the app keeps its state (token, OAuth clients); default the per-OS app folder. */
  appDir?: string;
  /** The environment the places derive from (CHATGPT_MCP_CONFIG, XDG_CONFIG_HOME); default this process's. */
  env?: NodeJS.ProcessEnv;
  /** An adapter the caller keeps across servers (the tray's, with its utility-process worker); otherwise one is made and closed with the server. */
  adapter?: ComputerAdapter;
  adapterOptions?: LocalAdapterOptions;
  /** Default: a stderr logger at server.logLevel. */
  logger?: Logger;
  observer?: ToolCallObserver;
  /** More values no answer or log line may carry (the tunnel's runtime key). */
  extraSecrets?: readonly string[];
  /** HTTP with OAuth: a client asks to connect (the tray prompts; headless, the log says how to approve). */
  onConsentRequest?: (request: ConsentRequest) => void;
  /** For tests: fs.search without ripgrep. */
  useRipgrep?: boolean;
}

export interface OpenServer {
  /** The HTTP URL, or null on stdio. */
  url: string | null;
  /** The token /mcp accepts, or null when it accepts none (and on stdio). */
  token: string | null;
  bearer: BearerToken | null;
  /** Scrubs the secrets in use from every line. */
  logger: Logger;
  policies: Policies;
  /** The exposed tools' fingerprint (contract-fingerprint.ts). */
  contract(): ContractFingerprint;
  /** The owner's other MCP servers (gateway.servers), or null when there are none. */
  gateway: Gateway | null;
  /** Where the tools' changes are recorded for undo (null with undo.enabled off). */
  journal: ChangeJournal | null;
  oauthIssuer: string | null;
  /** Ends the transport, then everything the server started. */
  close(): Promise<void>;
}

export async function openServer(options: HostOptions): Promise<OpenServer> {
  const { config, transport } = options;
  const env = options.env ?? process.env;
  const appDir = options.appDir ?? stateDir(env);
  const base = options.logger ?? createLogger(config.server.logLevel);
  // Nothing in the app folder is read before it is known to be ours alone (owned-state.ts).
  const repaired = secureAppFolder(appDir);
  // Like the tunnel's key file: a token others can read is not served.
  const exposed = transport === 'http' && config.server.token ? configTokenExposure(options.configFile ?? null) : null;
  if (exposed) throw new TokenFileError(exposed);
  const bearer = transport === 'http' ? await ensureBearerToken(config, appDir) : null;
  const secrets = [...(bearer ? [bearer.token] : []), ...(options.extraSecrets ?? [])];
  // Refused requests log their path, which a caller chooses: every line is scrubbed of the secrets in use.
  const logger = scrubbingLogger(base, secrets);
  for (const warning of repaired) logger.warn(warning);
  // Windows: the job that takes commands' own children with the server is ready before the first command (windows-job.ts).
  if (process.platform === 'win32' && (config.shell.enabled || config.gateway.servers.length > 0)) void prepareWindowsJob(env);
  const ownsAdapter = !options.adapter;
  const adapter = options.adapter ?? createLocalAdapter(options.adapterOptions);
  const answers = new ReplyBacklog();
  const memory = idleMemory();
  let gateway: Gateway | null = null;
  const journal = config.undo.enabled ? openJournal(appDir, config, (error) => logger.warn('change journal failed', { error: error.message })) : null;
  let audit: AuditLog | null = null;
  const stopOwned = async () => {
    memory.close();
    audit?.close();
    await gateway?.close();
    if (ownsAdapter) await adapter.close();
  };
  try {
    audit = openAudit(config, appDir, secrets, logger);
    const factory = createServerFactory({
      config,
      adapter,
      logger,
      observer: bothObservers(options.observer, audit?.record),
      ...(audit ? { audit: auditReader(appDir) } : {}),
      onCallEnded: memory.callEnded,
      protectedFiles: protectedPaths(options.configPath, env),
      secrets,
      answers,
      gatewayDir: appDir,
      ...(journal ? { journal } : {}),
      ...(options.useRipgrep === undefined ? {} : { useRipgrep: options.useRipgrep }),
    });
    gateway = factory.gateway;
    warnAboutSetup(factory, config, logger);
    const running =
      transport === 'http' ? await listenHttp(factory, { ...options, logger, answers, appDir, bearer }) : await listenStdio(factory, logger, answers);
    return {
      url: running.url,
      token: bearer?.token ?? null,
      bearer,
      logger,
      policies: factory.policies,
      contract: factory.contract,
      gateway,
      journal,
      oauthIssuer: running.oauthIssuer,
      async close() {
        await running.close();
        await stopOwned();
      },
    };
  } catch (error) {
    await stopOwned();
    throw error;
  }
}

/** Every entry point's calls are recorded (main/audit/); the app folder was checked before. */
function openAudit(config: Readonly<Config>, appDir: string, secrets: readonly string[], logger: Logger): AuditLog | null {
  if (!config.audit.enabled) return null;
  return new AuditLog({
    dir: auditDir(appDir),
    maxFileBytes: config.audit.maxFileBytes,
    keepFiles: config.audit.keepFiles,
    secrets: [config.server.token ?? '', ...secrets].filter(Boolean),
    onError: (message) => logger.warn(message),
  });
}

/** The audit tools' view of the log: each line's target in the redacted words the activity view uses. */
function auditReader(appDir: string): AuditReader {
  return {
    search: (query) =>
      searchAuditLog(auditDir(appDir), query).map(({ time, tool, client, profile, args, outcome, ms }) => ({
        time,
        tool,
        client,
        ...(profile ? { profile } : {}),
        target: targetText(args),
        outcome,
        ms,
      })),
  };
}

function bothObservers(first: ToolCallObserver | undefined, second: ToolCallObserver | undefined): ToolCallObserver | undefined {
  if (!first || !second) return first ?? second;
  return (event) => {
    try {
      first(event);
    } finally {
      second(event);
    }
  };
}

/** What the owner should know about a server that starts anyway. */
function warnAboutSetup(factory: ServerFactory, config: Readonly<Config>, logger: Logger): void {
  const sandbox = factory.policies.sandbox;
  if (sandbox.active && sandbox.choice.display === 'abstract-sockets-reachable') {
    logger.warn(
      'commands share the network, so X11 abstract sockets stay reachable from the sandbox (and a dbus-launch session bus); shell.network "off" hides them',
    );
  }
  const root = rootWarning();
  if (root) logger.warn(root);
  if (config.server.auth === 'none') logger.warn('no authentication: any program on this computer can use the granted tools (server.auth is "none")');
}

interface Listening {
  url: string | null;
  oauthIssuer: string | null;
  close(): Promise<void>;
}

async function listenHttp(
  factory: ServerFactory,
  options: HostOptions & { logger: Logger; answers: ReplyBacklog; appDir: string; bearer: BearerToken | null },
): Promise<Listening> {
  const { config, logger, bearer } = options;
  // The HTTP boundary and OAuth load only for HTTP: a stdio server starts without them.
  const [{ ListenError, startHttpServer }, { oauthStatePath }, { serverReadiness }] = await Promise.all([
    import('../mcp/http.js'),
    import('../auth/oauth-state.js'),
    import('../mcp/readyz.js'),
  ]);
  const running = await startHttpServer({
    config,
    factory,
    logger,
    bearerToken: bearer?.token ?? null,
    // Anyone may read a 401: the hint names the command without the owner's folders.
    tokenHint: `get it on the computer running the server: ${publicCliHint('token show')} prints it, or Copy token in the tray app's menu`,
    answers: options.answers,
    oauth: { stateFile: oauthStatePath(options.appDir), onConsentRequest: options.onConsentRequest ?? consentInTheLog(logger) },
  });
  // The server says it is ready only when a tool call could be answered: ask it once, as a client would.
  const readiness = await serverReadiness(running.url);
  if (!readiness.ready) {
    await running.close();
    throw new ListenError(`The server listens at ${running.url} but is not ready (${readiness.status}).`, 'other');
  }
  if (bearer?.created) logger.info('created a bearer token', { file: bearer.file, show: cliHint('token show') });
  logger.info('listening', {
    url: running.url,
    config: options.configFile ?? 'defaults',
    tools: enabledTools(config).length,
    auth: config.server.auth,
    ...(running.oauthIssuer ? { oauth: running.oauthIssuer } : {}),
    ...(bearer ? { token: bearer.source === 'file' ? `in ${bearer.file} (${cliHint('token show')})` : 'from the config' } : {}),
  });
  return running;
}

async function listenStdio(factory: ServerFactory, logger: Logger, answers: ReplyBacklog): Promise<Listening> {
  // The stdio wire loads only here, as the HTTP boundary loads only for HTTP.
  const { startStdioServer } = await import('../mcp/stdio.js');
  answers.watch(process.stdout);
  const handle = startStdioServer(factory, logger);
  logger.info('serving on stdio', { tools: factory.directTools.size });
  return { url: null, oauthIssuer: null, close: () => handle.close() };
}

/** Headless: the owner approves with the CLI (the tray shows a prompt instead). */
function consentInTheLog(logger: Logger): (request: ConsentRequest) => void {
  return (request) =>
    logger.info(
      `an app asks to connect: approve with ${cliHint('oauth approve CODE')} only if you started this, its page shows this code and returnsTo is the app you are connecting`,
      { code: request.code, app: request.clientName, returnsTo: request.redirectHost },
    );
}
