/**
 * `chatgpt-mcp gateway list | test NAME | accept NAME [TOOL] | set-secret NAME`: the owner's
 * upstream MCP servers, headless. `list` reads the config and the pins without starting
 * anything; `test` starts one upstream here, in the sandbox its policy plans, lists what it
 * offers (holding tools that changed since they were accepted) and stops it; `accept` shows what
 * changed in each held tool and accepts it (a running server exposes it from its next listing);
 * `set-secret` stores a value entries refer to as {"secret": NAME}, read from stdin.
 */
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { CliOverrides } from '../config/load.js';
import { shownUrl } from '../config/shown-url.js';
import { prefixOf, SECRET_REF, type Config, type UpstreamConfig } from '../config/schema.js';
import { Gateway } from '../gateway/gateway.js';
import { PinStore, pinsPath, type UpstreamPins } from '../gateway/pin-store.js';
import { gatewaySecrets } from '../gateway/secrets.js';
import { toolDifference } from '../gateway/tool-diff.js';
import type { HeldEntry } from '../gateway/catalog-pins.js';
import { protectedPaths, stateDir } from '../host/places.js';
import { createLogger } from '../log.js';
import { exposedAs } from '../mcp/tool-names.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { VIEW_URI_PREFIX } from '../mcp/views.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { EXIT, print, printJson, say, usageError, visible, withConfig } from './io.js';

export function gatewayCommand(sub: string | undefined, rest: string[], cli: CliOverrides): number | Promise<number> {
  const [name, tool, ...extra] = rest;
  if (extra.length > 0) return usageError(`unexpected argument "${extra[0]}"`);
  switch (sub) {
    case 'list':
      if (name !== undefined) return usageError(`unexpected argument "${name}"`);
      return withConfig(cli, ({ config }) => list(config));
    case 'test':
    case 'accept':
      if (name === undefined) return usageError(`"gateway ${sub}" needs the name of a server in gateway.servers`);
      if (sub === 'test' && tool !== undefined) return usageError(`unexpected argument "${tool}"`);
      return withConfig(cli, ({ config, path }) => (sub === 'test' ? test(config, path, name) : accept(config, name, tool)));
    case 'set-secret':
      if (name === undefined || !SECRET_REF.test(name)) return usageError('"gateway set-secret NAME" needs a secret name (letters, digits and . _ / -)');
      return setSecret(name);
    default:
      return usageError('expected "gateway list", "gateway test NAME", "gateway accept NAME [TOOL]" or "gateway set-secret NAME"');
  }
}

function list(config: Readonly<Config>): number {
  const servers = config.gateway.servers;
  if (servers.length === 0) {
    say('no upstream servers: add entries to gateway.servers (docs/GATEWAY.md)');
    return print('[]');
  }
  const pins = new PinStore(pinsPath(stateDir()));
  const rows = servers.map((entry) => describe(entry, pins.pins(entry.name), pins.held(entry.name)));
  for (const row of rows) {
    say(
      `${row.name} (${row.prefix}_*): ${row.enabled ? row.start : 'disabled'}, ${row.transport}, ${row.tools.length} tools accepted${row.held.length ? `, ${row.held.length} held` : ''}`,
    );
    for (const held of row.held)
      say(`  held: ${visible(held.name)} (${held.reason}); "chatgpt-mcp gateway accept ${row.name}" shows the change and accepts it`);
  }
  return printJson(rows);
}

function describe(entry: UpstreamConfig, pins: UpstreamPins | undefined, held: HeldEntry[]) {
  return {
    name: entry.name,
    prefix: prefixOf(entry),
    enabled: entry.enabled,
    start: entry.start,
    transport: entry.url === undefined ? 'stdio' : 'http',
    ...(entry.url === undefined
      ? { command: entry.command, sandbox: entry.sandbox, network: entry.network, folders: entry.folders }
      : { url: shownUrl(entry.url) }),
    tools: Object.keys(pins?.tools ?? {}),
    held: held.map(({ name, reason, seenAt }) => ({ name, reason, ...(seenAt ? { seenAt } : {}) })),
    seen: pins !== undefined,
    leftOut: pins?.catalog?.leftOut ?? [],
  };
}

async function test(config: Readonly<Config>, configPath: string, name: string): Promise<number> {
  if (!config.gateway.servers.some((s) => s.name === name)) return unknown(config, name);
  const adapter = createLocalAdapter();
  const protectedFiles = protectedPaths(configPath);
  const dir = stateDir();
  const known = ALL_TOOLS.map((t) => t.name);
  const gateway = new Gateway({
    config,
    processes: adapter.processes,
    port: adapter.inspect,
    files: new FilesystemPolicy(config.filesystem, adapter.inspect, { protectedFiles }),
    protectedFiles,
    pins: new PinStore(pinsPath(dir)),
    secrets: () => gatewaySecrets(dir),
    logger: createLogger(config.server.logLevel === 'info' ? 'warn' : config.server.logLevel),
    reserved: [...known, ...known.map((n) => exposedAs(n, 'underscore'))],
    ownViews: VIEW_URI_PREFIX,
    autostart: false,
  });
  try {
    const status = await gateway.test(name);
    say(`${name} started (${status.transport}${status.sandboxed ? ', sandboxed' : ''}) and listed ${status.tools.length} tools`);
    for (const held of status.held) say(`held: ${visible(held.name)} (${held.reason}); "chatgpt-mcp gateway accept ${name}" shows the change and accepts it`);
    for (const refused of status.refused) say(`refused: ${visible(refused)}`);
    return printJson({ tools: status.tools, held: status.held, refused: status.refused });
  } catch (error) {
    say(`${name} did not start: ${visible(error instanceof Error ? error.message : String(error))}`);
    return EXIT.config;
  } finally {
    await gateway.close();
    await adapter.close();
  }
}

async function accept(config: Readonly<Config>, name: string, tool: string | undefined): Promise<number> {
  if (!config.gateway.servers.some((s) => s.name === name)) return unknown(config, name);
  const pins = new PinStore(pinsPath(stateDir()));
  const accepted = await pins.accept(name, tool);
  if (accepted.length === 0) {
    say(
      `${name} has nothing held${tool ? ` named ${tool}` : ''} ("chatgpt-mcp gateway test ${name}" starts it and compares its tools, prompts and templates with the accepted ones)`,
    );
    return print('[]');
  }
  for (const held of accepted) process.stdout.write(visible(toolDifference(held.name, held.before, held.now), true));
  say(`accepted ${visible(accepted.map((h) => h.name).join(', '))}; a running server exposes ${accepted.length === 1 ? 'it' : 'them'} from its next listing`);
  return EXIT.ok;
}

async function setSecret(name: string): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  const store = await gatewaySecrets(stateDir());
  try {
    await store.set(name, value);
  } catch (error) {
    say((error as Error).message);
    return EXIT.config;
  }
  say(`stored the secret "${name}" in ${store.where}; refer to it as {"secret": "${name}"}`);
  return EXIT.ok;
}

function unknown(config: Readonly<Config>, name: string): number {
  say(`no server named "${name}" in gateway.servers (there are: ${config.gateway.servers.map((s) => s.name).join(', ') || 'none'})`);
  return EXIT.config;
}
