/**
 * A server entry pasted from another MCP host, turned into gateway.servers entries (the settings
 * window's "Add a server" and `chatgpt-mcp gateway add`). Where hosts keep them
 * (pasted-servers.ts): `mcpServers` JSON (Claude Desktop, Claude Code, Cursor, Windsurf, Cline),
 * VS Code's `servers`, Zed's `context_servers`, Codex's `[mcp_servers.NAME]` TOML.
 *
 * The text may come from anyone's README, so nothing that grants is taken from it (folders,
 * network, sandbox, display, prefix...), and no secret is carried over (pasted-secrets.ts): an env
 * value that looks secret, or that its host fills in (`${input:id}`, `${env:NAME}`, `${NAME}`),
 * and a bearer header become references the owner stores once, never one already stored under
 * that name (`stored`: it would be sent where this entry says); a secret argument is replaced.
 * The notes say all of it, naming only what is safe to show.
 */
import { ENV_NAME, PREFIX, type SecretRef } from './schema.js';
import { isObject, pastedServers, type Raw } from './pasted-servers.js';
import { NOT_COPIED, PLACEHOLDER, secretText, secretValue, withoutDefaults, withoutSecretArgs } from './pasted-secrets.js';
import { secretInUrl, shownUrl } from './shown-url.js';

/** A gateway.servers entry as the config file holds it. */
export interface PastedEntry {
  name: string;
  prefix?: string;
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string | SecretRef>;
  url?: string;
  bearerToken?: SecretRef;
  enabled?: boolean;
  startupTimeoutMs?: number;
  callTimeoutMs?: number;
  tools?: { include?: string[]; exclude?: string[] };
}

export interface Pasted {
  entries: PastedEntry[];
  /** What the owner must do or know: secrets to store, settings that were not carried over. */
  notes: string[];
}

/** Programs that fetch the server when it starts (they need the network and a writable cache). */
const FETCHERS = /(^|[/\\])(npx|uvx|bunx|pnpm|yarn|pipx)(\.cmd|\.exe)?$/i;
/** The variables every upstream gets anyway (docs/GATEWAY.md). */
const GIVEN = new Set(['PATH', 'LANG', 'HOME', 'TMPDIR']);
/** Keys that become a setting here, or that a note answers. */
const UNDERSTOOD = new Set([
  ...['command', 'args', 'env', 'cwd', 'url', 'serverUrl', 'headers', 'http_headers', 'env_http_headers', 'bearer_token_env_var'],
  ...['enabled', 'disabled', 'type', 'transport', 'transportType', 'name', 'description', 'title', 'source'],
  ...['startup_timeout_sec', 'startup_timeout_ms', 'tool_timeout_sec', 'timeout'],
  ...['enabled_tools', 'disabled_tools', 'disabledTools', 'autoApprove', 'alwaysAllow', 'env_vars', 'envFile'],
]);
/** Settings that exist here but are never taken from a paste: they grant, and the owner sets them after reading the entry. */
const GRANTS = new Set(['network', 'folders', 'sandbox', 'display', 'prefix', 'serialGroup', 'idleStopMs', 'start', 'tools', 'bearerToken']);
/** The most text taken: entries are a few hundred bytes; a paste of megabytes is a mistake or an attack on the page. */
export const MAX_PASTE_CHARS = 1024 * 1024;

/** `stored`: secret names taken (stored, or another entry's): a reference never reuses one. Throws an Error whose message says what was expected. */
export function parsePasted(text: string, stored: ReadonlySet<string> = new Set()): Pasted {
  if (text.length > MAX_PASTE_CHARS) throw new Error(`That is ${text.length} characters; an entry is far shorter (at most ${MAX_PASTE_CHARS}).`);
  const servers = pastedServers(text);
  const pasted: Pasted = { entries: [], notes: [] };
  const names = new Set<string>();
  const prefixes = new Set<string>();
  for (const [given, raw] of Object.entries(servers)) {
    if (!isObject(raw)) throw new Error(`"${safeName(given)}" is not an object with "command" or "url".`);
    let name = safeName(given);
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${safeName(given).slice(0, 36)}-${n}`;
    names.add(name.toLowerCase());
    const entry = convert(name, raw, pasted.notes, stored);
    // Names that differ only in "_" and "-" (a-b, A_B) come out the same prefix: told apart too.
    for (let n = 2; entry.prefix !== undefined && prefixes.has(entry.prefix.toLowerCase()); n++) entry.prefix = `${prefixOf(name).slice(0, 21)}${n}`;
    if (entry.prefix !== undefined) prefixes.add(entry.prefix.toLowerCase());
    pasted.entries.push(entry);
  }
  if (pasted.entries.length === 0) throw new Error('No server entry found in what was pasted.');
  return pasted;
}

/**
 * The paste read again past every secret name that holds a value already, until none of its
 * references does (`storedAmong`: which of these names hold one; the store is asked, the values
 * never read out).
 */
export async function parseAvoidingStored(text: string, storedAmong: (names: string[]) => Promise<string[]>): Promise<Pasted> {
  const stored = new Set<string>();
  for (;;) {
    const pasted = parsePasted(text, stored);
    const found = (await storedAmong(secretNames(pasted.entries))).filter((name) => !stored.has(name));
    if (found.length === 0) return pasted;
    for (const name of found) stored.add(name);
  }
}

/** The secret names gateway entries already refer to (the config's): a pasted entry refers to none of them, stored or not yet. */
export function referencedSecrets(servers: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  const add = (value: unknown) => void (isObject(value) && typeof value.secret === 'string' && names.add(value.secret));
  for (const server of servers) {
    if (!isObject(server)) continue;
    add(server.bearerToken);
    if (isObject(server.env)) Object.values(server.env).forEach(add);
  }
  return names;
}

/** Every secret name the entries refer to (to learn which are stored already). */
export function secretNames(entries: readonly PastedEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.bearerToken ? [entry.bearerToken.secret] : []),
    ...Object.values(entry.env ?? {}).flatMap((value) => (typeof value === 'string' ? [] : [value.secret])),
  ]);
}

type Note = (text: string) => void;

function convert(name: string, given: Raw, notes: string[], stored: ReadonlySet<string>): PastedEntry {
  const note: Note = (text) => void notes.push(`${name}: ${text}`);
  // A reference named for this entry, past any name that holds a value already.
  const reference = (key: string): SecretRef => {
    let secret = `${name}/${key}`;
    for (let n = 2; stored.has(secret); n++) secret = `${name}/${key}-${n}`;
    if (secret !== `${name}/${key}`)
      note(`the secret name ${name}/${key} is taken (stored already, or another entry's): this entry refers to ${secret} instead, never to that one.`);
    return { secret };
  };
  // Zed nests the launch: "command": { "path", "args", "env" }.
  const nested = isObject(given.command) ? given.command : null;
  const raw: Raw = nested ? { ...given, command: nested.path, args: nested.args, env: nested.env } : given;
  if (nested) {
    const inside = Object.keys(nested).filter((key) => !['path', 'args', 'env'].includes(key));
    if (inside.length) note(`not carried over from its "command": ${inside.join(', ')}.`);
  }
  const entry: PastedEntry = { name };
  const prefix = prefixOf(name);
  if (prefix && PREFIX.test(prefix)) entry.prefix = prefix;
  const url = text(raw.url) ?? text(raw.serverUrl);
  if (url !== undefined) {
    if (raw.command !== undefined) note('it has both a command and a url: the url was taken.');
    remote(entry, raw, url, note, reference);
  } else if (typeof raw.command === 'string') {
    local(entry, raw, note, reference);
  } else {
    throw new Error(`"${name}" has neither "command" nor "url".`);
  }
  if (typeof raw.enabled === 'boolean') entry.enabled = raw.enabled;
  if (typeof raw.disabled === 'boolean') entry.enabled = !raw.disabled;
  timeouts(entry, raw, note);
  toolChoice(entry, raw, note);
  const grants = Object.keys(given).filter((key) => GRANTS.has(key));
  if (grants.length) note(`not taken from a paste (set them here once you have read the entry): ${grants.join(', ')}.`);
  const left = Object.keys(given).filter((key) => !UNDERSTOOD.has(key) && !GRANTS.has(key));
  if (left.length) note(`not carried over (no such setting here): ${left.join(', ')}.`);
  if (entry.command !== undefined) note('it runs sandboxed with no folders and no network until you add them.');
  return entry;
}

/** An HTTP server's address and token; a bearer header or variable becomes a reference. */
function remote(entry: PastedEntry, raw: Raw, url: string, note: Note, reference: (key: string) => SecretRef): void {
  entry.url = withoutDefaults(url);
  const kind = String(raw.type ?? raw.transport ?? raw.transportType ?? '').toLowerCase();
  if (kind === 'sse' || /\/sse\/?$/i.test(url.split('?')[0]!))
    note('it speaks SSE, the older HTTP transport; the gateway speaks Streamable HTTP only: if the server offers it (often at /mcp), change the url.');
  if (PLACEHOLDER.test(url)) note(`its url holds ${shownPlaceholder(url)}, which its host fills in: write the address itself.`);
  if (secretInUrl(entry.url))
    note(
      `its url looks like it holds a key (${shownUrl(entry.url)}): it stays in the config file as written, shown redacted; prefer a bearer token if the service takes one.`,
    );
  const headers = { ...(isObject(raw.headers) ? raw.headers : {}), ...(isObject(raw.http_headers) ? raw.http_headers : {}) };
  const fromEnv = isObject(raw.env_http_headers) ? raw.env_http_headers : {};
  const isAuth = (key: string) => key.toLowerCase() === 'authorization';
  if (Object.keys(headers).some(isAuth) || Object.keys(fromEnv).some(isAuth) || typeof raw.bearer_token_env_var === 'string') {
    entry.bearerToken = reference('token');
    const { secret } = entry.bearerToken;
    note(`store its bearer token as ${secret} under "Secrets", or with "chatgpt-mcp gateway set-secret ${secret}" (the token was not copied into the config).`);
  }
  const others = [...Object.keys(headers), ...Object.keys(fromEnv)].filter((key) => !isAuth(key));
  if (others.length) note(`the headers ${others.join(', ')} were not carried over (only a bearer token is sent).`);
}

/** A program's launch: command, arguments, folder, environment. */
function local(entry: PastedEntry, raw: Raw, note: Note, reference: (key: string) => SecretRef): void {
  const command = secretText(raw.command as string) ? NOT_COPIED : (raw.command as string);
  if (command === NOT_COPIED) note(`its command held a secret and reads ${NOT_COPIED}: name the program itself, and give the secret through env.`);
  entry.command = command;
  if (Array.isArray(raw.args)) {
    const { args, replaced } = withoutSecretArgs(raw.args.map(String));
    entry.args = args;
    if (replaced)
      note(
        `${replaced} of its arguments looked secret and read ${NOT_COPIED} instead: give the server that value through env (a secret) if it reads one there, or write it here yourself.`,
      );
  } else if (raw.args !== undefined) note('its args are not a list: not carried over.');
  const filled = [command, ...(entry.args ?? [])].flatMap((word) => (PLACEHOLDER.test(word) ? [shownPlaceholder(word)] : []));
  if (filled.length) note(`its command line holds ${[...new Set(filled)].join(', ')}, which its host fills in: write the value itself.`);
  if (typeof raw.cwd === 'string') {
    if (PLACEHOLDER.test(raw.cwd) || !/^(\/|[A-Za-z]:[\\/])/.test(raw.cwd)) note('its working folder is not a full path here: set cwd yourself.');
    else entry.cwd = raw.cwd;
  }
  if (FETCHERS.test(command))
    note(
      `${command} downloads the server when it starts, which needs the network and a writable cache: give this entry "network" and a folder for the cache, or install the server and name its program instead.`,
    );
  if (/(^|[/\\])docker(\.exe)?$/i.test(command))
    note("docker needs its socket among the entry's folders, and whatever reaches that socket controls this computer: prefer installing the server.");
  const env = isObject(raw.env) ? environment(raw.env, note, reference) : [];
  // Codex passes these from its own environment; here nothing of the server's is passed on.
  const passed = (names(raw.env_vars) ?? []).filter(
    (key) => ENV_NAME.test(key) && key !== '__proto__' && !GIVEN.has(key) && !env.some(([name]) => name === key),
  );
  for (const key of passed) env.push([key, reference(key)]);
  if (passed.length)
    note(
      `env_vars ${passed.join(', ')} came from Codex's own environment; here nothing of the server's is passed on, so each is a reference: store them under "Secrets" (or write plain values in env).`,
    );
  if (http(raw)) note('its headers are for an HTTP server: not used by a command.');
  if (typeof raw.envFile === 'string') note('its envFile is not read: write its variables in env (secrets as references).');
  // Built from entries: a name such as constructor stays a name.
  if (env.length) entry.env = Object.fromEntries(env);
}

/** Plain values kept; secret-looking ones, and those the host fills in, become references (their values left behind). */
function environment(env: Raw, note: Note, reference: (key: string) => SecretRef): Array<[string, string | SecretRef]> {
  const out: Array<[string, string | SecretRef]> = [];
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_NAME.test(key) || key === '__proto__' || (typeof value === 'object' && value !== null)) {
      dropped.push(ENV_NAME.test(key) ? key : 'a name that is not a variable name');
      continue;
    }
    const text = String(value);
    const kind = secretValue(key, text);
    if (kind === null) {
      out.push([key, text]);
      continue;
    }
    const ref = reference(key);
    out.push([key, ref]);
    note(
      `store ${key} as ${ref.secret} under "Secrets", or with "chatgpt-mcp gateway set-secret ${ref.secret}" (${kind === 'filled' ? `the entry had ${shownPlaceholder(text)}, which its host fills in` : 'its value was not copied into the config'}).`,
    );
  }
  if (dropped.length) note(`left out of env: ${[...new Set(dropped)].join(', ')} (a variable's value is text).`);
  return out;
}

/** Codex's allow-list and deny-lists, Cline's. A list that is not one allows nothing rather than everything. */
function toolChoice(entry: PastedEntry, raw: Raw, note: Note): void {
  const include = raw.enabled_tools === undefined ? undefined : (names(raw.enabled_tools) ?? []);
  if (include && !Array.isArray(raw.enabled_tools)) note('its enabled_tools is not a list: no tool is exposed until you say which (tools.include).');
  const lists = [raw.disabled_tools, raw.disabledTools].filter((list) => list !== undefined);
  const exclude = lists.length ? [...new Set(lists.flatMap((list) => names(list) ?? []))] : undefined;
  if (lists.some((list) => !Array.isArray(list))) note('a list of disabled tools is not a list: not carried over.');
  if (include || exclude?.length) entry.tools = { ...(include ? { include } : {}), ...(exclude?.length ? { exclude } : {}) };
  if (names(raw.autoApprove)?.length || names(raw.alwaysAllow)?.length)
    note(
      "its auto-approved tools were not carried over: the host you connect (ChatGPT, Claude...) asks you itself, and the entry's folders and network bound what any call can do.",
    );
}

/** Codex's timeouts (seconds or ms) and Cline's `timeout` (seconds), kept within what the gateway takes. */
function timeouts(entry: PastedEntry, raw: Raw, note: Note): void {
  const ms = (value: unknown, scale: number) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value * scale) : undefined);
  const within = (value: number, max: number, what: string) => {
    const kept = Math.min(Math.max(value, 1000), max);
    if (kept !== value) note(`its ${what} of ${value / 1000} s is outside what the gateway takes (1-${max / 1000} s): ${kept / 1000} s.`);
    return kept;
  };
  const startup = ms(raw.startup_timeout_ms, 1) ?? ms(raw.startup_timeout_sec, 1000);
  if (startup !== undefined) entry.startupTimeoutMs = within(startup, 300_000, 'start-up timeout');
  const call = ms(raw.tool_timeout_sec, 1000) ?? ms(raw.timeout, 1000);
  if (call !== undefined) entry.callTimeoutMs = within(call, 3_600_000, 'call timeout');
}

/** A placeholder as a note may show it: its name, never its default. */
function shownPlaceholder(text: string): string {
  return withoutDefaults(text.match(PLACEHOLDER)![0]);
}

function http(raw: Raw): boolean {
  return [raw.headers, raw.http_headers, raw.env_http_headers].some((headers) => isObject(headers) && Object.keys(headers).length > 0);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function names(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item) => typeof item !== 'object').map(String) : undefined;
}

/** The prefix the config would give the name (its letters and digits, no leading digit). */
function prefixOf(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '');
}

function safeName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 40);
  return cleaned || 'server';
}
