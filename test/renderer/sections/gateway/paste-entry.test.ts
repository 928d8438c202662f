/**
 * Pasted entries from Claude Desktop, Cursor and Codex become gateway.servers entries the config
 * schema accepts, with secret values left behind as references and the owner told.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../../main/config/schema.js';
import { parsePasted } from '../../../../renderer/src/sections/gateway/paste-entry.js';

const valid = (entries: unknown[]) => configSchema.safeParse({ gateway: { servers: entries } }).success;

describe('parsePasted', () => {
  it("Claude Desktop's mcpServers: the command, its args and env, a secret turned into a reference", () => {
    const pasted = parsePasted(
      JSON.stringify({
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', LOG: 'info' },
          },
        },
      }),
    );
    expect(pasted.entries).toEqual([
      {
        name: 'github',
        prefix: 'github',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: { secret: 'github/GITHUB_PERSONAL_ACCESS_TOKEN' }, LOG: 'info' },
      },
    ]);
    expect(JSON.stringify(pasted)).not.toContain('ghp_');
    expect(pasted.notes.join('\n')).toContain('chatgpt-mcp gateway set-secret github/GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(pasted.notes.join('\n')).toContain('npx downloads the server');
    expect(valid(pasted.entries)).toBe(true);
  });

  it('one member of the object, as copied from a README, and a bare entry', () => {
    expect(parsePasted('"memory": { "command": "node", "args": ["/opt/memory/index.js"] },').entries[0]).toMatchObject({ name: 'memory', command: 'node' });
    expect(parsePasted('{"command": "uvx", "args": ["mcp-server-time"]}').entries[0]).toMatchObject({ name: 'server', command: 'uvx' });
  });

  it("Cursor's URL entry with an Authorization header: a bearer token reference", () => {
    const pasted = parsePasted(
      '{"mcpServers": {"remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer abc.def", "X-Team": "a"}}}}',
    );
    expect(pasted.entries[0]).toEqual({ name: 'remote', prefix: 'remote', url: 'https://mcp.example.com/mcp', bearerToken: { secret: 'remote/token' } });
    expect(pasted.notes.join('\n')).toContain('X-Team were not carried over');
    expect(JSON.stringify(pasted)).not.toContain('abc.def');
    expect(valid(pasted.entries)).toBe(true);
  });

  it("Codex's [mcp_servers.NAME] TOML, with its timeouts and disabled tools", () => {
    const pasted = parsePasted(
      [
        '[mcp_servers.my_docs]',
        'command = "docs-server"',
        'args = ["--root", "/srv/docs"]',
        'startup_timeout_sec = 20',
        'tool_timeout_sec = 45',
        'disabled_tools = ["delete"]',
        '',
        '[mcp_servers.my_docs.env]',
        'API_KEY = "s3cret-value"',
        'MODE = "ro"',
      ].join('\n'),
    );
    expect(pasted.entries[0]).toEqual({
      name: 'my_docs',
      prefix: 'mydocs',
      command: 'docs-server',
      args: ['--root', '/srv/docs'],
      env: { API_KEY: { secret: 'my_docs/API_KEY' }, MODE: 'ro' },
      startupTimeoutMs: 20_000,
      callTimeoutMs: 45_000,
      tools: { exclude: ['delete'] },
    });
    expect(valid(pasted.entries)).toBe(true);
  });

  it('what is not an entry says what is expected', () => {
    expect(() => parsePasted('')).toThrow(/Paste an "mcpServers" entry/);
    expect(() => parsePasted('hello there')).toThrow(/neither JSON nor TOML/);
    expect(() => parsePasted('[other]\nx = 1')).toThrow(/Expected \[mcp_servers.NAME\] tables/);
    expect(() => parsePasted('{"mcpServers": {"x": {"args": []}}}')).toThrow(/"x" has neither "command" nor "url"/);
  });
});
