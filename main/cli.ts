#!/usr/bin/env node
/**
 * Headless entry: `chatgpt-mcp serve --http|--stdio`, `chatgpt-mcp config check`. The tray
 * app runs the same server modules; this file only parses arguments and wires them up.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { LocalComputerAdapter } from '../adapter/local-computer-adapter.js';
import { ConfigError, configPathFor, loadConfig, type CliOverrides } from './config/load.js';
import { redactConfig } from './config/redact.js';
import { createLogger } from './log.js';
import { startHttpServer, ListenError } from './mcp/http.js';
import { createServerFactory, enabledTools } from './mcp/server.js';
import { startStdioServer } from './mcp/stdio.js';
import { VERSION } from './version.js';

const HELP = `chatgpt-mcp ${VERSION}: let ChatGPT or any MCP client act on this computer, within what you allow.

Usage:
  chatgpt-mcp [serve] [--http]      serve MCP over HTTP (default http://127.0.0.1:3210/mcp)
  chatgpt-mcp serve --stdio         serve MCP over stdin/stdout (for hosts that spawn a command)
  chatgpt-mcp config check          validate the config and print it (secrets masked)
  chatgpt-mcp config path           print the config file path in use
  chatgpt-mcp token                 print a new random token for CHATGPT_MCP_TOKEN
  chatgpt-mcp --version | --help

Options:
  --config FILE       config file (default: per-OS path, see "config path"; env CHATGPT_MCP_CONFIG)
  --host HOST         bind address (env CHATGPT_MCP_HOST, default 127.0.0.1)
  --port PORT         port, 0 picks a free one (env CHATGPT_MCP_PORT, default 3210)
  --log-level LEVEL   silent|error|warn|info|debug (env CHATGPT_MCP_LOG_LEVEL, default info)

The bearer token is read from CHATGPT_MCP_TOKEN or server.token, never from a flag
(flags are visible to every user in the process list).`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        http: { type: 'boolean' },
        stdio: { type: 'boolean' },
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'log-level': { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.version) return print(VERSION);
  if (values.help) return print(HELP);

  const cli: CliOverrides = { config: values.config, host: values.host, port: values.port, logLevel: values['log-level'] };
  const [command = 'serve', sub, ...rest] = positionals;
  if (rest.length > 0) return usageError(`unexpected argument "${rest[0]}"`);

  switch (command) {
    case 'serve':
      if (sub !== undefined) return usageError(`unexpected argument "${sub}"`);
      if (values.http && values.stdio) return usageError('choose one of --http and --stdio');
      return values.stdio ? serveStdio(cli) : serveHttp(cli);
    case 'config':
      if (sub === 'check') return configCheck(cli);
      // Printed without parsing, so a broken config can still be found.
      if (sub === 'path') return print(configPathFor({ cli }));
      return usageError('expected "config check" or "config path"');
    case 'token':
      if (sub !== undefined) return usageError(`unexpected argument "${sub}"`);
      return print(randomBytes(32).toString('base64url'));
    default:
      return usageError(`unknown command "${command}"`);
  }
}

function withConfig(cli: CliOverrides, run: (loaded: ReturnType<typeof loadConfig>) => number | Promise<number>): number | Promise<number> {
  let loaded;
  try {
    loaded = loadConfig({ cli });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`chatgpt-mcp: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  return run(loaded);
}

function configCheck(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, ({ config, file }) => {
    process.stderr.write(`chatgpt-mcp: configuration is valid (${file ?? 'no config file, using defaults'})\n`);
    process.stderr.write(
      `chatgpt-mcp: tools exposed: ${enabledTools(config)
        .map((t) => t.name)
        .join(', ')}\n`,
    );
    return print(JSON.stringify(redactConfig(config), null, 2));
  });
}

function serveHttp(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, file, path }) => {
    const logger = createLogger(config.server.logLevel);
    const adapter = new LocalComputerAdapter();
    const factory = createServerFactory({ config, adapter, logger, protectedFiles: [path] });
    let running;
    try {
      running = await startHttpServer({ config, factory, logger });
    } catch (error) {
      if (error instanceof ListenError) {
        process.stderr.write(`chatgpt-mcp: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
    logger.info('listening', {
      url: running.url,
      config: file ?? 'defaults',
      tools: enabledTools(config).length,
      auth: config.server.token ? 'bearer' : 'none',
    });
    await untilSignal();
    logger.info('shutting down');
    await running.close();
    await adapter.close();
    return 0;
  });
}

function serveStdio(cli: CliOverrides): number | Promise<number> {
  return withConfig(cli, async ({ config, path }) => {
    const logger = createLogger(config.server.logLevel);
    const adapter = new LocalComputerAdapter();
    const factory = createServerFactory({ config, adapter, logger, protectedFiles: [path] });
    const handle = startStdioServer(factory, logger);
    logger.info('serving on stdio', { tools: enabledTools(config).length });
    await Promise.race([untilSignal(), new Promise<void>((resolve) => process.stdin.once('end', resolve))]);
    await handle.close();
    await adapter.close();
    return 0;
  });
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

function print(text: string): number {
  process.stdout.write(text + '\n');
  return 0;
}

function usageError(message: string): number {
  process.stderr.write(`chatgpt-mcp: ${message}\nRun "chatgpt-mcp --help" for usage.\n`);
  return 64;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`chatgpt-mcp: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
