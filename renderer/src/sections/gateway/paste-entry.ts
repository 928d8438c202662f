/**
 * A server entry pasted from another MCP host, turned into gateway.servers entries: Claude
 * Desktop's and Cursor's `mcpServers` JSON (the whole object, one `"name": {...}` member, or a
 * bare `{command, args, env}`), or a Codex `[mcp_servers.NAME]` TOML table. Secret values are
 * never carried over: an env value that looks secret (or a bearer header) becomes a reference
 * the owner stores on the page's Secrets card or with `chatgpt-mcp gateway set-secret`, and the notes say so.
 */
import { parse as parseToml } from 'smol-toml';
import { inlineSecret, PREFIX, type SecretRef } from '../../../../main/config/schema.js';

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
  tools?: { exclude: string[] };
}

export interface Pasted {
  entries: PastedEntry[];
  /** What the owner must do or know: secrets to store, settings that were not carried over. */
  notes: string[];
}

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws an Error whose message says what was expected. */
export function parsePasted(text: string): Pasted {
  const trimmed = text.trim();
  if (!trimmed) throw new Error('Paste an "mcpServers" entry (JSON, from Claude Desktop or Cursor) or an [mcp_servers.NAME] table (TOML, from Codex).');
  const servers = trimmed.startsWith('[') || /^\s*\[mcp_servers\./m.test(trimmed) ? fromToml(trimmed) : fromJson(trimmed);
  const pasted: Pasted = { entries: [], notes: [] };
  for (const [name, raw] of Object.entries(servers)) {
    if (!isObject(raw)) throw new Error(`"${name}" is not an object with "command" or "url".`);
    pasted.entries.push(convert(safeName(name), raw, pasted.notes));
  }
  if (pasted.entries.length === 0) throw new Error('No server entry found in what was pasted.');
  return pasted;
}

function fromJson(text: string): Raw {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    try {
      // One member of an mcpServers object: "name": { ... }
      value = JSON.parse(`{${text.replace(/,\s*$/, '')}}`);
    } catch {
      throw new Error('This is neither JSON nor TOML that an MCP host writes; paste the entry as your host shows it.');
    }
  }
  if (!isObject(value)) throw new Error('Expected a JSON object.');
  const servers = isObject(value.mcpServers) ? value.mcpServers : isObject(value.servers) ? value.servers : value;
  return 'command' in servers || 'url' in servers ? { server: servers } : servers;
}

function fromToml(text: string): Raw {
  let value: Raw;
  try {
    value = parseToml(text) as Raw;
  } catch (error) {
    throw new Error(`This TOML does not parse: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  if (!isObject(value.mcp_servers)) throw new Error('Expected [mcp_servers.NAME] tables, as Codex writes them in config.toml.');
  return value.mcp_servers;
}

function convert(name: string, raw: Raw, notes: string[]): PastedEntry {
  const entry: PastedEntry = { name };
  const prefix = name.replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '');
  if (prefix && PREFIX.test(prefix)) entry.prefix = prefix;
  const url = typeof raw.url === 'string' ? raw.url : typeof raw.serverUrl === 'string' ? raw.serverUrl : undefined;
  if (url !== undefined) {
    entry.url = url;
    const headers = isObject(raw.headers) ? raw.headers : isObject(raw.http_headers) ? raw.http_headers : {};
    const auth = Object.entries(headers).find(([key]) => key.toLowerCase() === 'authorization');
    if (auth || typeof raw.bearer_token_env_var === 'string') {
      entry.bearerToken = { secret: `${name}/token` };
      notes.push(
        `${name}: store its bearer token as ${name}/token under "Secrets" below, or with "chatgpt-mcp gateway set-secret ${name}/token" (the token was not copied into the config).`,
      );
    }
    const others = Object.keys(headers).filter((key) => key.toLowerCase() !== 'authorization');
    if (others.length) notes.push(`${name}: the headers ${others.join(', ')} were not carried over (only a bearer token is sent).`);
  } else if (typeof raw.command === 'string') {
    entry.command = raw.command;
    if (Array.isArray(raw.args)) entry.args = raw.args.map(String);
    if (typeof raw.cwd === 'string') entry.cwd = raw.cwd;
    if (/(^|\/)(npx|uvx|bunx|pnpm|yarn)$/.test(raw.command)) {
      notes.push(
        `${name}: ${raw.command} downloads the server when it starts, which needs the network and a writable cache: give this entry "network" and a folder for the cache, or install the server and name its program instead.`,
      );
    }
  } else {
    throw new Error(`"${name}" has neither "command" nor "url".`);
  }
  if (isObject(raw.env)) entry.env = environment(name, raw.env, notes);
  if (typeof raw.enabled === 'boolean') entry.enabled = raw.enabled;
  if (typeof raw.disabled === 'boolean') entry.enabled = !raw.disabled;
  if (typeof raw.startup_timeout_sec === 'number') entry.startupTimeoutMs = Math.round(raw.startup_timeout_sec * 1000);
  if (typeof raw.tool_timeout_sec === 'number') entry.callTimeoutMs = Math.round(raw.tool_timeout_sec * 1000);
  const disabled = Array.isArray(raw.disabled_tools) ? raw.disabled_tools : Array.isArray(raw.disabledTools) ? raw.disabledTools : null;
  if (disabled) entry.tools = { exclude: disabled.map(String) };
  notes.push(`${name}: it runs sandboxed with no folders and no network until you add them.`);
  return entry;
}

/** Plain values kept; secret-looking ones become references, their values left behind. */
function environment(server: string, env: Raw, notes: string[]): Record<string, string | SecretRef> {
  const out: Record<string, string | SecretRef> = {};
  for (const [key, value] of Object.entries(env)) {
    const text = String(value);
    if (inlineSecret(key, text)) {
      out[key] = { secret: `${server}/${key}` };
      notes.push(
        `${server}: store ${key} as ${server}/${key} under "Secrets" below, or with "chatgpt-mcp gateway set-secret ${server}/${key}" (its value was not copied into the config).`,
      );
    } else out[key] = text;
  }
  return out;
}

function safeName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 40);
  return cleaned || 'server';
}
