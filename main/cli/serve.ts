/** `chatgpt-mcp serve --http | --stdio`: the server, until a signal (or stdin's end) stops it. */
import type { CliOverrides, LoadedConfig } from '../config/load.js';
import { OwnedStateError } from '../config/owned-state.js';
import { TokenFileError } from '../config/token.js';
import { openServer, type HostOptions, type OpenServer } from '../host/server-host.js';
import { SandboxUnavailableError } from '../policy/sandbox.js';
import { EXIT, say, untilSignal, withConfig } from './io.js';

export function serveHttp(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async (loaded) => {
    const opened = await openOrExit(loaded, { transport: 'http' });
    if (typeof opened === 'number') return opened;
    await untilSignal();
    opened.logger.info('shutting down');
    await opened.close();
    return EXIT.ok;
  });
}

/** `settings`: the whole config from the host that started the server (the Claude Desktop bundle) instead of a file. */
export function serveStdio(cli: CliOverrides, settings?: Record<string, unknown>): number | Promise<number> {
  return withConfig(
    cli,
    async (loaded) => {
      const opened = await openOrExit(loaded, { transport: 'stdio' });
      if (typeof opened === 'number') return opened;
      await Promise.race([untilSignal(), new Promise<void>((resolve) => process.stdin.once('end', resolve))]);
      await opened.close();
      return EXIT.ok;
    },
    settings,
  );
}

/** The server as the CLI runs it (serve, tunnel start, tunnel doctor), or the exit code explaining why not. */
export async function openOrExit(
  { config, file, path }: LoadedConfig,
  options: Omit<HostOptions, 'config' | 'configPath' | 'configFile'>,
): Promise<OpenServer | number> {
  try {
    return await openServer({ config, configPath: path, configFile: file, ...options });
  } catch (error) {
    const { ListenError } = await import('../mcp/http.js');
    if (error instanceof ListenError) {
      say(error.message);
      // The OAuth state file is the app's own state, not the port: a config-class failure.
      return error.reason === 'oauth-state' ? EXIT.config : EXIT.listen;
    }
    if (error instanceof SandboxUnavailableError) {
      say(`cannot start: ${error.message}`);
      return EXIT.config;
    }
    if (error instanceof TokenFileError || error instanceof OwnedStateError) {
      say(error.message);
      return EXIT.config;
    }
    throw error;
  }
}
