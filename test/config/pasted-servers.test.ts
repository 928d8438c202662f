/** Where each host keeps its servers, found in what was pasted. */
import { describe, expect, it } from 'vitest';
import { pastedServers } from '../../main/config/pasted-servers.js';

const one = { command: 'srv' };

describe('pastedServers', () => {
  it.each([
    ['mcpServers (Claude, Cursor, Cline)', { mcpServers: { a: one } }],
    ['servers (VS Code .vscode/mcp.json)', { servers: { a: one } }],
    ['mcp.servers (VS Code settings.json)', { 'editor.fontSize': 12, mcp: { servers: { a: one } } }],
    ['context_servers (Zed)', { context_servers: { a: one } }],
    ['the servers object itself', { a: one }],
  ])('%s', (_, value) => {
    expect(pastedServers(JSON.stringify(value))).toEqual({ a: one });
  });

  it('a bare entry is one server, a url one too; Codex tables come from TOML', () => {
    expect(pastedServers('{"url": "https://x.example.com/mcp"}')).toEqual({ server: { url: 'https://x.example.com/mcp' } });
    expect(pastedServers('{"serverUrl": "https://x.example.com/mcp"}')).toEqual({ server: { serverUrl: 'https://x.example.com/mcp' } });
    expect(pastedServers('[mcp_servers.a]\ncommand = "srv"\n')).toEqual({ a: one });
    expect(() => pastedServers('[mcp_servers.a\ncommand = 1')).toThrow(/This TOML does not parse/);
  });
});
