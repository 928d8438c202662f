/**
 * Where MCP hosts keep their servers, read from what the owner pasted (pasted-entry.ts turns each
 * into a gateway entry): the `mcpServers` object of Claude Desktop, Claude Code, Cursor, Windsurf
 * and Cline (the whole file, one `"name": {...}` member as a README shows it, or a bare
 * `{command, args, env}`), VS Code's `servers` (also under `mcp` in its settings), Zed's
 * `context_servers`, and Codex's `[mcp_servers.NAME]` TOML tables.
 */
import { parse as parseToml } from 'smol-toml';

export type Raw = Record<string, unknown>;

export const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys hosts keep their servers under, by name. */
const SERVER_LISTS = ['mcpServers', 'servers', 'context_servers', 'mcp_servers'];

/** The pasted servers by name; throws an Error whose message says what was expected. */
export function pastedServers(text: string): Raw {
  const trimmed = text.trim();
  if (!trimmed)
    throw new Error(
      'Paste an "mcpServers" entry (JSON, from Claude Desktop, Claude Code, Cursor, Windsurf or Cline), a "servers" entry (VS Code) or an [mcp_servers.NAME] table (TOML, from Codex).',
    );
  return trimmed.startsWith('[') || /^\s*(?:\[mcp_servers[.\]]|mcp_servers\s*[.=])/m.test(trimmed) ? fromToml(trimmed) : fromJson(trimmed);
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
  const listed = SERVER_LISTS.find((key) => isObject(value[key]));
  const servers = listed ? (value[listed] as Raw) : isObject(value.mcp) && isObject(value.mcp.servers) ? value.mcp.servers : value;
  return 'command' in servers || 'url' in servers || 'serverUrl' in servers ? { server: servers } : servers;
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
