/**
 * A server entry pasted from another MCP host, turned into gateway.servers entries (the settings
 * window's "Add a server" and `chatgpt-mcp gateway add`). Where hosts keep them
 * (pasted-servers.ts): `mcpServers` JSON (Claude Desktop, Claude Code, Cursor, Windsurf, Cline),
 * VS Code's `servers`, Zed's `context_servers`, Codex's `[mcp_servers.NAME]` TOML.
 *
 * No secret is carried over: an env value that looks secret, or that its host fills in from
 * elsewhere (`${input:id}`, `${env:NAME}`, `${NAME}`), and a bearer header become references the
 * owner stores once, and the notes say so. Whatever has no setting here is named in the notes.
 */
import { inlineSecret, PREFIX, type SecretRef } from './schema.js';
import { isObject, pastedServers, type Raw } from './pasted-servers.js';

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

/** A value its host fills in when it starts the server: VS Code's and Cursor's `${input:id}`, `${env:NAME}`, `${workspaceFolder}`; Claude Code's `${NAME:-default}`. */
const PLACEHOLDER = /\$\{(?:(?:input|env):[^}]*|[A-Za-z_]\w*(?::-[^}]*)?)\}/;
/** Programs that fetch the server when it starts (they need the network and a writable cache). */
const FETCHERS = /(^|[/\\])(npx|uvx|bunx|pnpm|yarn|pipx)(\.cmd|\.exe)?$/i;
/** The variables every upstream gets anyway (docs/GATEWAY.md). */
const GIVEN = new Set(['PATH', 'LANG', 'HOME', 'TMPDIR']);
/** Keys that become a setting here, or that a note answers; any other is named as not carried over. */
const UNDERSTOOD = new Set([
  ...['command', 'args', 'env', 'cwd', 'url', 'serverUrl', 'headers', 'http_headers', 'env_http_headers', 'bearer_token_env_var'],
  ...['enabled', 'disabled', 'type', 'transport', 'transportType', 'name', 'description', 'title', 'source'],
  ...['startup_timeout_sec', 'startup_timeout_ms', 'tool_timeout_sec', 'timeout'],
  ...['enabled_tools', 'disabled_tools', 'disabledTools', 'autoApprove', 'alwaysAllow', 'env_vars', 'envFile'],
]);

/** Throws an Error whose message says what was expected. */
export function parsePasted(text: string): Pasted {
  const servers = pastedServers(text);
  const pasted: Pasted = { entries: [], notes: [] };
  for (const [name, raw] of Object.entries(servers)) {
    if (!isObject(raw)) throw new Error(`"${name}" is not an object with "command" or "url".`);
    pasted.entries.push(convert(safeName(name), raw, pasted.notes));
  }
  if (pasted.entries.length === 0) throw new Error('No server entry found in what was pasted.');
  return pasted;
}

function convert(name: string, given: Raw, notes: string[]): PastedEntry {
  const note = (text: string) => void notes.push(`${name}: ${text}`);
  // Zed nests the launch: "command": { "path", "args", "env" }.
  const raw: Raw = isObject(given.command) ? { ...given, ...given.command, command: given.command.path } : given;
  const entry: PastedEntry = { name };
  const prefix = name.replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '');
  if (prefix && PREFIX.test(prefix)) entry.prefix = prefix;
  const url = text(raw.url) ?? text(raw.serverUrl);
  if (url !== undefined) {
    entry.url = url;
    remote(entry, raw, url, note);
  } else if (typeof raw.command === 'string') {
    local(entry, raw, note);
  } else {
    throw new Error(`"${name}" has neither "command" nor "url".`);
  }
  if (typeof raw.enabled === 'boolean') entry.enabled = raw.enabled;
  if (typeof raw.disabled === 'boolean') entry.enabled = !raw.disabled;
  timeouts(entry, raw, note);
  const include = names(raw.enabled_tools);
  const exclude = names(raw.disabled_tools) ?? names(raw.disabledTools);
  if (include || exclude) entry.tools = { ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) };
  if (names(raw.autoApprove)?.length || names(raw.alwaysAllow)?.length)
    note(
      "its auto-approved tools were not carried over: the host you connect (ChatGPT, Claude...) asks you itself, and the entry's folders and network bound what any call can do.",
    );
  const left = Object.keys(given).filter((key) => !UNDERSTOOD.has(key));
  if (left.length) note(`not carried over (no such setting here): ${left.join(', ')}.`);
  if (entry.command !== undefined) note('it runs sandboxed with no folders and no network until you add them.');
  return entry;
}

/** An HTTP server's address and token; a bearer header or variable becomes a reference. */
function remote(entry: PastedEntry, raw: Raw, url: string, note: (text: string) => void): void {
  const kind = String(raw.type ?? raw.transport ?? raw.transportType ?? '').toLowerCase();
  if (kind === 'sse' || /\/sse\/?$/i.test(url.split('?')[0]!))
    note('it speaks SSE, the older HTTP transport; the gateway speaks Streamable HTTP only: if the server offers it (often at /mcp), change the url.');
  if (PLACEHOLDER.test(url)) note(`its url holds ${url.match(PLACEHOLDER)![0]}, which its host fills in: write the address itself.`);
  const headers = { ...(isObject(raw.headers) ? raw.headers : {}), ...(isObject(raw.http_headers) ? raw.http_headers : {}) };
  const fromEnv = isObject(raw.env_http_headers) ? raw.env_http_headers : {};
  const isAuth = (key: string) => key.toLowerCase() === 'authorization';
  if (Object.keys(headers).some(isAuth) || Object.keys(fromEnv).some(isAuth) || typeof raw.bearer_token_env_var === 'string') {
    entry.bearerToken = { secret: `${entry.name}/token` };
    note(
      `store its bearer token as ${entry.name}/token under "Secrets", or with "chatgpt-mcp gateway set-secret ${entry.name}/token" (the token was not copied into the config).`,
    );
  }
  const others = [...Object.keys(headers), ...Object.keys(fromEnv)].filter((key) => !isAuth(key));
  if (others.length) note(`the headers ${others.join(', ')} were not carried over (only a bearer token is sent).`);
}

/** A program's launch: command, arguments, folder, environment. */
function local(entry: PastedEntry, raw: Raw, note: (text: string) => void): void {
  const command = raw.command as string;
  entry.command = command;
  if (Array.isArray(raw.args)) entry.args = raw.args.map(String);
  const filled = [command, ...(entry.args ?? [])].flatMap((word) => word.match(PLACEHOLDER) ?? []);
  if (filled.length) note(`its command line holds ${[...new Set(filled)].join(', ')}, which its host fills in: write the value itself.`);
  if (typeof raw.cwd === 'string') {
    if (PLACEHOLDER.test(raw.cwd) || !/^(\/|[A-Za-z]:[\\/])/.test(raw.cwd)) note(`its working folder ${raw.cwd} is not a full path here: set cwd yourself.`);
    else entry.cwd = raw.cwd;
  }
  if (FETCHERS.test(command))
    note(
      `${command} downloads the server when it starts, which needs the network and a writable cache: give this entry "network" and a folder for the cache, or install the server and name its program instead.`,
    );
  if (/(^|[/\\])docker(\.exe)?$/i.test(command))
    note("docker needs its socket among the entry's folders, and whatever reaches that socket controls this computer: prefer installing the server.");
  const env = isObject(raw.env) ? environment(entry.name, raw.env, note) : [];
  // Codex passes these from its own environment; here nothing of the server's is passed on.
  const passed = (names(raw.env_vars) ?? []).filter((key) => !GIVEN.has(key) && !env.some(([name]) => name === key));
  for (const key of passed) env.push([key, { secret: `${entry.name}/${key}` }]);
  if (passed.length)
    note(
      `env_vars ${passed.join(', ')} came from Codex's own environment; here nothing of the server's is passed on, so each is a reference: store ${passed.map((key) => `${entry.name}/${key}`).join(', ')} under "Secrets" (or write plain values in env).`,
    );
  if (typeof raw.envFile === 'string') note(`its envFile ${raw.envFile} is not read: write its variables in env (secrets as references).`);
  // Built from entries: a name such as __proto__ stays a name (and the schema judges it).
  if (env.length) entry.env = Object.fromEntries(env);
}

/** Plain values kept; secret-looking ones, and those the host fills in, become references (their values left behind). */
function environment(server: string, env: Raw, note: (text: string) => void): Array<[string, string | SecretRef]> {
  const out: Array<[string, string | SecretRef]> = [];
  for (const [key, value] of Object.entries(env)) {
    const text = String(value);
    const filled = PLACEHOLDER.test(text);
    if (filled || inlineSecret(key, text)) {
      out.push([key, { secret: `${server}/${key}` }]);
      note(
        `store ${key} as ${server}/${key} under "Secrets", or with "chatgpt-mcp gateway set-secret ${server}/${key}" (${filled ? `the entry had ${text.match(PLACEHOLDER)![0]}, which its host fills in` : 'its value was not copied into the config'}).`,
      );
    } else out.push([key, text]);
  }
  return out;
}

/** Codex's timeouts (seconds or ms) and Cline's `timeout` (seconds), kept within what the gateway takes. */
function timeouts(entry: PastedEntry, raw: Raw, note: (text: string) => void): void {
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

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function names(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

function safeName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 40);
  return cleaned || 'server';
}
