/**
 * `chatgpt-mcp gateway list | test NAME | show NAME [ITEM] | accept NAME [ITEM] [--expect FP] |
 * set-secret NAME | add [--dry-run]`: the owner's upstream MCP servers, headless. `list` reads the config and the
 * pins without starting anything; `test` starts one upstream here, in the sandbox its policy
 * plans, lists what it offers (holding tools that changed since they were accepted) and stops it;
 * `show` prints what changed in each held item with its fingerprint, accepting nothing; `accept`
 * accepts them and prints what it accepted (a running server exposes them from its next listing),
 * with `--expect` only if each is still what `show` printed; `set-secret` stores a value entries
 * refer to as {"secret": NAME}, read from stdin; `add`: gateway-add.ts.
 */
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { CliOverrides } from '../config/load.js';
import { addPasted } from './gateway-add.js';
import { shownUrl } from '../config/shown-url.js';
import { prefixOf, SECRET_REF, type Config, type UpstreamConfig } from '../config/schema.js';
import { Gateway } from '../gateway/gateway.js';
import { heldFingerprint, PinStore, pinsPath, type UpstreamPins } from '../gateway/pin-store.js';
import { gatewaySecrets } from '../gateway/secrets.js';
import { toolDifference } from '../gateway/tool-diff.js';
import { acceptedOnly, type HeldEntry } from '../gateway/catalog-pins.js';
import { protectedPaths, stateDir } from '../host/places.js';
import { createLogger } from '../log.js';
import { exposedAs } from '../mcp/tool-names.js';
import { ALL_TOOLS } from '../mcp/tools/index.js';
import { VIEW_URI_PREFIX } from '../mcp/views.js';
import { FilesystemPolicy } from '../policy/filesystem.js';
import { excludedBy } from '../policy/tool-exclusion.js';
import { EXIT, MAX_SECRET_BYTES, print, printJson, readStdin, say, StdinTooLong, usageError, visible, withConfig } from './io.js';

/** How much of a held item's fingerprint `show` prints, and the least `--expect` takes (64 bits: no upstream can make another item match). */
const SHOWN_FINGERPRINT = 16;

export function gatewayCommand(
  sub: string | undefined,
  rest: string[],
  cli: CliOverrides,
  expect: readonly string[] = [],
  dryRun = false,
): number | Promise<number> {
  const [name, tool, ...extra] = rest;
  if (extra.length > 0) return usageError(`unexpected argument "${extra[0]}"`);
  if (expect.length > 0 && sub !== 'accept') return usageError('--expect goes with "gateway accept NAME" only');
  if (dryRun && sub !== 'add') return usageError('--dry-run goes with "gateway add" only');
  const badPrint = expect.find((fp) => !new RegExp(`^[0-9a-f]{${SHOWN_FINGERPRINT},64}$`).test(fp));
  if (badPrint !== undefined)
    return usageError(`--expect ${visible(badPrint)}: expected a fingerprint "gateway show" printed (at least ${SHOWN_FINGERPRINT} hex digits)`);
  switch (sub) {
    case 'list':
      if (name !== undefined) return usageError(`unexpected argument "${name}"`);
      return withConfig(cli, ({ config }) => list(config));
    case 'test':
    case 'show':
    case 'accept':
      if (name === undefined) return usageError(`"gateway ${sub}" needs the name of a server in gateway.servers`);
      if (sub === 'test' && tool !== undefined) return usageError(`unexpected argument "${tool}"`);
      return withConfig(cli, ({ config, path }) =>
        sub === 'test' ? test(config, path, name) : sub === 'show' ? show(config, name, tool) : accept(config, name, tool, expect),
      );
    case 'set-secret':
      if (name === undefined || !SECRET_REF.test(name)) return usageError('"gateway set-secret NAME" needs a secret name (letters, digits and . _ / -)');
      return setSecret(name);
    case 'add':
      if (name !== undefined) return usageError(`unexpected argument "${name}" (the entry is read from stdin)`);
      return addPasted(cli, dryRun);
    default:
      return usageError(
        'expected "gateway list", "gateway test NAME", "gateway show NAME [ITEM]", "gateway accept NAME [ITEM]", "gateway set-secret NAME" or "gateway add"',
      );
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
    say(`${row.name} (${row.prefix}_*): ${row.enabled ? row.start : 'disabled'}, ${row.transport}, ${row.tools.length} tools accepted${counted(row)}`);
    for (const held of row.held) say(`  held: ${visible(held.name)} (${held.reason}); "chatgpt-mcp gateway show ${row.name}" shows the change`);
    if (row.notListed.length) say(`  ${notListed(row.name, row.notListed, pins.pins(row.name))} at its last start`);
  }
  return printJson(rows);
}

/** The rest of a row's line: what it leaves out, its accepted prompts, templates and views, what it holds. */
function counted(row: ReturnType<typeof describe>): string {
  const parts: Array<[number, string]> = [
    [row.excluded.length, 'excluded'],
    [row.prompts.length, 'prompts'],
    [row.templates.length, 'resource templates'],
    [row.views.length, 'views'],
    [row.held.length, 'held'],
  ];
  return parts.map(([count, what]) => (count ? `, ${count} ${what}` : '')).join('');
}

function describe(entry: UpstreamConfig, pins: UpstreamPins | undefined, held: HeldEntry[]) {
  const excluded = excludedBy(entry);
  const accepted = Object.keys(pins?.tools ?? {});
  const catalog = pins?.catalog && acceptedOnly(pins.catalog, pins.acceptedCatalog);
  return {
    name: entry.name,
    prefix: prefixOf(entry),
    enabled: entry.enabled,
    start: entry.start,
    transport: entry.url === undefined ? 'stdio' : 'http',
    ...(entry.url === undefined
      ? { command: entry.command, sandbox: entry.sandbox, network: entry.network, folders: entry.folders }
      : { url: shownUrl(entry.url) }),
    tools: accepted.filter((tool) => !excluded(tool)),
    excluded: accepted.filter(excluded),
    prompts: catalog?.prompts.map((prompt) => String(prompt.name)) ?? [],
    templates: catalog?.resourceTemplates.map((template) => String(template.uriTemplate)) ?? [],
    views: catalog?.views?.map((view) => String(view.uri)) ?? [],
    held: held.map(({ name, reason, seenAt }) => ({ name, reason, ...(seenAt ? { seenAt } : {}) })),
    seen: pins !== undefined,
    leftOut: pins?.catalog?.leftOut ?? [],
    notListed: unlisted(entry, pins),
  };
}

/** The names tools.include gives that the upstream did not list (a typo, or a tool it no longer has), once it was seen. */
function unlisted(entry: UpstreamConfig, pins: UpstreamPins | undefined): string[] {
  if (!pins || !entry.tools.include) return [];
  return entry.tools.include.filter((tool) => !Object.hasOwn(pins.tools, tool) && !Object.hasOwn(pins.held, tool));
}

/** The include names not listed, each with the listed name it differs from only in case (a likely typo). */
function notListed(name: string, tools: readonly string[], pins: UpstreamPins | undefined): string {
  const listed = [...Object.keys(pins?.tools ?? {}), ...Object.keys(pins?.held ?? {})];
  const named = tools.map((tool) => {
    const near = listed.find((other) => other.toLowerCase() === tool.toLowerCase());
    return near ? `${tool} (it lists ${near})` : tool;
  });
  return `tools.include names ${visible(named.join(', '))}, which ${name} did not list`;
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
    const pins = new PinStore(pinsPath(dir)).pins(name);
    const listed = Object.keys(pins?.tools ?? {}).length + Object.keys(pins?.held ?? {}).length;
    say(`${name} started (${status.transport}${status.sandboxed ? ', sandboxed' : ''}), listed ${listed} tools and exposes ${status.tools.length}`);
    for (const held of status.held) say(`held: ${visible(held.name)} (${held.reason}); "chatgpt-mcp gateway show ${name}" shows the change`);
    for (const refused of status.refused) say(`refused: ${visible(refused)}`);
    const entry = config.gateway.servers.find((s) => s.name === name)!;
    const missing = unlisted(entry, pins);
    if (missing.length) say(notListed(name, missing, pins));
    return printJson({ tools: status.tools, held: status.held, refused: status.refused, ...(missing.length ? { notListed: missing } : {}) });
  } catch (error) {
    say(`${name} did not start: ${visible(error instanceof Error ? error.message : String(error))}`);
    return EXIT.config;
  } finally {
    await gateway.close();
    await adapter.close();
  }
}

/** Each held item's difference and fingerprint; nothing accepted. */
function show(config: Readonly<Config>, name: string, item: string | undefined): number {
  if (!config.gateway.servers.some((s) => s.name === name)) return unknown(config, name);
  const held = new PinStore(pinsPath(stateDir())).held(name).filter((h) => item === undefined || h.name === item);
  if (held.length === 0) return nothingHeld(name, item);
  for (const h of held) {
    process.stdout.write(visible(toolDifference(h.name, h.before, h.now), true));
    process.stdout.write(`fingerprint: ${shownPrint(h)}\n\n`);
  }
  const prints = held.map((h) => `--expect ${shownPrint(h)}`).join(' ');
  // The item is the upstream's own words: quoted so a pasted command runs nothing, and left out where no quoting could print it.
  const printable = item === undefined || visible(item) === item;
  const command = `chatgpt-mcp gateway accept ${name}${item !== undefined && printable ? ` ${shellWord(item)}` : ''} ${prints}`;
  say(
    `${held.length} held; "${command}"${printable ? '' : ', with the item as you gave it here,'} accepts ${held.length === 1 ? 'it' : 'them'} as shown, and nothing that changed since`,
  );
  return EXIT.ok;
}

/** The part of a held item's fingerprint `show` prints. */
function shownPrint(held: HeldEntry): string {
  return heldFingerprint(held).slice(0, SHOWN_FINGERPRINT);
}

/** `text` as one word to the shell a command is pasted into: quoted so nothing in it is expanded. */
function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return process.platform === 'win32' ? `'${text.replace(/'/g, "''")}'` : `'${text.replace(/'/g, `'\\''`)}'`;
}

async function accept(config: Readonly<Config>, name: string, item: string | undefined, expect: readonly string[]): Promise<number> {
  if (!config.gateway.servers.some((s) => s.name === name)) return unknown(config, name);
  const pins = new PinStore(pinsPath(stateDir()));
  // The full fingerprints of what the owner read: PinStore.accept refuses, whole, anything held that is not one of them now.
  const seen =
    expect.length > 0
      ? pins
          .held(name)
          .map(heldFingerprint)
          .filter((fp) => expect.some((e) => fp.startsWith(e)))
      : undefined;
  let accepted;
  try {
    accepted = await pins.accept(name, item, new Date(), seen);
  } catch (error) {
    say(`nothing accepted: ${visible(error instanceof Error ? error.message : String(error))} ("chatgpt-mcp gateway show ${name}")`);
    return EXIT.config;
  }
  if (accepted.length === 0) return nothingHeld(name, item);
  for (const held of accepted) process.stdout.write(visible(toolDifference(held.name, held.before, held.now), true));
  say(`accepted ${visible(accepted.map((h) => h.name).join(', '))}; a running server exposes ${accepted.length === 1 ? 'it' : 'them'} from its next listing`);
  return EXIT.ok;
}

function nothingHeld(name: string, item: string | undefined): number {
  say(
    `${name} has nothing held${item ? ` named ${visible(item)}` : ''} ("chatgpt-mcp gateway test ${name}" starts it and compares its tools, prompts and templates with the accepted ones)`,
  );
  return print('[]');
}

async function setSecret(name: string): Promise<number> {
  let value: string;
  try {
    value = (await readStdin(MAX_SECRET_BYTES)).replace(/\r?\n$/, '');
  } catch (error) {
    if (!(error instanceof StdinTooLong)) throw error;
    say(`nothing stored: ${error.message}`);
    return EXIT.usage;
  }
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
