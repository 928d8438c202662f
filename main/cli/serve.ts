/** `chatgpt-mcp serve --http | --stdio`: the server, until a signal (or stdin's end) stops it. */
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { CliOverrides } from '../config/load.js';
import { oauthStatePath } from '../auth/oauth-state.js';
import { ensureBearerToken } from '../config/token.js';
import { createLogger, scrubbingLogger } from '../log.js';
import { ListenError, startHttpServer } from '../mcp/http.js';
import { createServerFactory, enabledTools } from '../mcp/server.js';
import { startStdioServer } from '../mcp/stdio.js';
import { EXIT, say, untilSignal, withConfig } from './io.js';
import { protectedPaths, stateDir } from './places.js';

export function serveHttp(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, file, path }) => {
    const logger = createLogger(config.server.logLevel);
    let bearer;
    try {
      bearer = await ensureBearerToken(config, stateDir());
    } catch (error) {
      say((error as Error).message);
      return EXIT.config;
    }
    const adapter = createLocalAdapter();
    const secrets = bearer ? [bearer.token] : [];
    const factory = createServerFactory({ config, adapter, logger, protectedFiles: protectedPaths(path), secrets });
    let running;
    try {
      running = await startHttpServer({
        config,
        factory,
        // Refused requests log their path, which a caller chooses: scrub the token from it too.
        logger: scrubbingLogger(logger, secrets),
        bearerToken: bearer?.token ?? null,
        oauth: {
          stateFile: oauthStatePath(stateDir()),
          // Headless: the owner approves with the CLI (the tray shows a prompt instead).
          onConsentRequest: (request) =>
            logger.info('an app asks to connect: approve with "chatgpt-mcp oauth approve CODE" if you started this', {
              code: request.code,
              app: request.clientName,
              returnsTo: request.redirectHost,
            }),
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
    await untilSignal();
    logger.info('shutting down');
    await running.close();
    await adapter.close();
    return EXIT.ok;
  });
}

export function serveStdio(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, path }) => {
    const logger = createLogger(config.server.logLevel);
    const adapter = createLocalAdapter();
    const factory = createServerFactory({ config, adapter, logger, protectedFiles: protectedPaths(path) });
    const handle = startStdioServer(factory, logger);
    logger.info('serving on stdio', { tools: enabledTools(config).length });
    await Promise.race([untilSignal(), new Promise<void>((resolve) => process.stdin.once('end', resolve))]);
    await handle.close();
    await adapter.close();
    return EXIT.ok;
  });
}
