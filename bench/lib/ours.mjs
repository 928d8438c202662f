/**
 * Our server, started in-process exactly as the CLI wires it (config parsed by the one schema,
 * createLocalAdapter, the shared factory, the HTTP boundary), on 127.0.0.1 with a free port
 * and no logging. If the CLI's wiring changes, this is the one place to follow it.
 */
import fs from 'node:fs';

const out = new URL('../../out/', import.meta.url);

async function load(path) {
  try {
    return await import(new URL(path, out).href);
  } catch (error) {
    throw new Error(`cannot load out/${path} (${error.message}); run "npm run build" first`, { cause: error });
  }
}

/** Every server the bench starts: no logging, and tool names dotted (fs.read), as the baselines and the bench's calls spell them. */
const BENCH_SERVER = Object.freeze({ toolNames: 'dotted', logLevel: 'silent' });

export async function loadOurs() {
  const [{ configSchema }, { createServerFactory, enabledTools }, { startHttpServer }, { createLocalAdapter }, { createLogger }] = await Promise.all([
    load('main/config/schema.js'),
    load('main/mcp/server.js'),
    load('main/mcp/http.js'),
    load('adapter/local-computer-adapter.js'),
    load('main/log.js'),
  ]);

  /**
   * The parsed config (BENCH_SERVER, a free port, no token: loopback only, as the baselines) and
   * the tool names it exposes; the name style costs nothing either way.
   */
  function configure(input) {
    // auth "none" (loopback only), like the bare-SDK baselines: the bench measures the server, not a token check
    const config = configSchema.parse({ ...input, server: { auth: 'none', ...BENCH_SERVER, ...input.server, port: 0 } });
    return { config, tools: enabledTools(config).map((tool) => tool.name) };
  }

  async function startOurs(input) {
    const { config, tools } = configure(input);
    const logger = createLogger('silent');
    const factory = createServerFactory({ config, adapter: createLocalAdapter(), logger });
    const running = await startHttpServer({ config, factory, logger });
    return { port: running.port, tools, close: () => running.close() };
  }

  /** How hosts spawn us over stdio: the CLI with a config file. */
  function stdioCommand(configPath) {
    return { command: process.execPath, args: [new URL('main/cli.js', out).pathname, 'serve', '--stdio', '--config', configPath] };
  }

  /** Writes a config file for stdioCommand: `input` on BENCH_SERVER. */
  function writeStdioConfig(configPath, input) {
    fs.writeFileSync(configPath, JSON.stringify({ ...input, server: { ...BENCH_SERVER, ...input.server } }));
    return configPath;
  }

  return { startOurs, stdioCommand, writeStdioConfig };
}
