/** `chatgpt-mcp serve --http | --stdio`: the server, until a signal (or stdin's end) stops it. */
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { CliOverrides } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { ensureBearerToken } from '../config/token.js';
import { createLogger, scrubbingLogger, type Logger } from '../log.js';
import { createServerFactory, enabledTools, type ServerDeps, type ServerFactory } from '../mcp/server.js';
import { SandboxUnavailableError } from '../policy/sandbox.js';
import { idleMemory } from '../mcp/idle-memory.js';
import { ReplyBacklog } from '../mcp/reply-backlog.js';
import { startStdioServer } from '../mcp/stdio.js';
import { EXIT, say, untilSignal, withConfig } from './io.js';
import { protectedPaths, stateDir } from './places.js';

export function serveHttp(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, file, path }) => {
    const opened = await openHttpServer(config, file, path);
    if (typeof opened === 'number') return opened;
    await untilSignal();
    opened.logger.info('shutting down');
    await opened.close();
    return EXIT.ok;
  });
}

export interface OpenServer {
  url: string;
  /** The token /mcp accepts, or null when it accepts none. */
  token: string | null;
  logger: Logger;
  close(): Promise<void>;
}

/** The HTTP server as "serve --http" runs it (also under "tunnel start"), or the exit code explaining why not. */
export async function openHttpServer(
  config: Readonly<Config>,
  file: string | null,
  path: string,
  extraSecrets: readonly string[] = [],
): Promise<OpenServer | number> {
  // The HTTP boundary and OAuth load only for HTTP: a stdio server starts without them.
  const [{ ListenError, startHttpServer }, { oauthStatePath }] = await Promise.all([import('../mcp/http.js'), import('../auth/oauth-state.js')]);
  let bearer;
  try {
    bearer = await ensureBearerToken(config, stateDir());
  } catch (error) {
    say((error as Error).message);
    return EXIT.config;
  }
  const secrets = [...(bearer ? [bearer.token] : []), ...extraSecrets];
  // Refused requests log their path, which a caller chooses: every line is scrubbed of the secrets in use.
  const logger = scrubbingLogger(createLogger(config.server.logLevel), secrets);
  const adapter = createLocalAdapter();
  const answers = new ReplyBacklog();
  const memory = idleMemory();
  const factory = await factoryOrExit({ config, adapter, logger, protectedFiles: protectedPaths(path), secrets, answers, onCallEnded: memory.callEnded });
  if (typeof factory === 'number') return factory;
  let running;
  try {
    running = await startHttpServer({
      config,
      factory,
      logger,
      bearerToken: bearer?.token ?? null,
      answers,
      oauth: {
        stateFile: oauthStatePath(stateDir()),
        // Headless: the owner approves with the CLI (the tray shows a prompt instead).
        onConsentRequest: (request) =>
          logger.info(
            'an app asks to connect: approve with "chatgpt-mcp oauth approve CODE" only if you started this, its page shows this code and returnsTo is the app you are connecting',
            {
              code: request.code,
              app: request.clientName,
              returnsTo: request.redirectHost,
            },
          ),
      },
    });
  } catch (error) {
    await adapter.close();
    if (error instanceof ListenError) {
      say(error.message);
      return EXIT.listen;
    }
    throw error;
  }
  if (config.server.auth === 'none') logger.warn('no authentication: any program on this computer can use the granted tools (server.auth is "none")');
  if (bearer?.created) logger.info('created a bearer token', { file: bearer.file, show: 'chatgpt-mcp token show' });
  logger.info('listening', {
    url: running.url,
    config: file ?? 'defaults',
    tools: enabledTools(config).length,
    auth: config.server.auth,
    ...(running.oauthIssuer ? { oauth: running.oauthIssuer } : {}),
    ...(bearer ? { token: bearer.source === 'file' ? `in ${bearer.file} (chatgpt-mcp token show)` : 'from the config' } : {}),
  });
  return {
    url: running.url,
    token: bearer?.token ?? null,
    logger,
    async close() {
      await running.close();
      await adapter.close();
      memory.close();
    },
  };
}

export function serveStdio(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, path }) => {
    const logger = createLogger(config.server.logLevel);
    const adapter = createLocalAdapter();
    const answers = new ReplyBacklog();
    answers.watch(process.stdout);
    const memory = idleMemory();
    const factory = await factoryOrExit({ config, adapter, logger, protectedFiles: protectedPaths(path), answers, onCallEnded: memory.callEnded });
    if (typeof factory === 'number') return factory;
    const handle = startStdioServer(factory, logger);
    logger.info('serving on stdio', { tools: enabledTools(config).length });
    await Promise.race([untilSignal(), new Promise<void>((resolve) => process.stdin.once('end', resolve))]);
    await handle.close();
    await adapter.close();
    memory.close();
    return EXIT.ok;
  });
}

/** The server factory, or the config exit code when the sandbox the config asks for cannot be had here. */
async function factoryOrExit(deps: ServerDeps): Promise<ServerFactory | number> {
  try {
    const factory = createServerFactory(deps);
    const sandbox = factory.policies.sandbox;
    if (sandbox.active && sandbox.choice.display === 'abstract-sockets-reachable') {
      deps.logger.warn(
        'commands share the network, so X11 abstract sockets stay reachable from the sandbox (and a dbus-launch session bus); shell.network "off" hides them',
      );
    }
    return factory;
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    say(`cannot start: ${error.message}`);
    await deps.adapter.close();
    return EXIT.config;
  }
}
