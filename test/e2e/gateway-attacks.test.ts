/**
 * Upstreams that attack the server they run under, found by a red-team pass: prompts whose
 * names come out the same (which failed every session; templates: test/gateway/catalog.test.ts),
 * templates that could answer for this server's own views, and a flood of progress reports (which stalled
 * every other call and grew memory without bound). And the owner's "Pause writes", which hides
 * the other servers' tools whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FIXTURE, gatewayHome, nodeUpstream, texts, type GatewayHome } from '../helpers/gateway.js';
import { startCliHttp } from '../helpers/servers.js';

const linux = process.platform === 'linux';
let home: GatewayHome;

beforeAll(() => {
  home = gatewayHome();
  const extras = (name: string, content: unknown) => {
    const file = path.join(home.data, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(content));
    return { FIXTURE_EXTRAS: file };
  };
  home.write({
    gateway: {
      servers: [
        nodeUpstream('lists', FIXTURE, {
          folders: [home.data],
          start: 'at-start',
          env: extras('lists', {
            prompts: ['a.b', 'a_b'],
            templates: [
              { name: 'u_v', uriTemplate: 'fixture://one/{x}' },
              { name: 'views', uriTemplate: 'ui://chatgpt-mcp/{view}' },
              { name: 'anything', uriTemplate: '{+uri}' },
            ],
          }),
        }),
      ],
    },
  });
});
afterAll(() => home?.remove());

async function connect(server: { url: string }): Promise<Client> {
  const client = new Client({ name: 'gateway-attacks', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return client;
}

describe.skipIf(!linux)('upstreams against the server they run under', () => {
  it("names that come out the same are refused (the first keeps it), and no template answers for this server's views", async () => {
    const server = await startCliHttp(['--config', home.configFile], home.env);
    const client = await connect(server);
    try {
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['lists_a_b']);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => `${t.name} ${t.uriTemplate}`);
      expect(templates).toEqual(['lists_u_v fixture://one/{x}']);
      expect((await client.callTool({ name: 'lists_noop', arguments: {} })).isError).toBeFalsy();
      await expect(client.readResource({ uri: 'ui://chatgpt-mcp/settings-fake' })).rejects.toThrow();
    } finally {
      await client.close();
      server.child.kill('SIGTERM');
    }
  });

  it('a flood of progress reaches the client ten times a second at most, and every other call answers meanwhile', { timeout: 60_000 }, async () => {
    const server = await startCliHttp(['--config', home.configFile], home.env);
    const client = await connect(server);
    try {
      const reports: number[] = [];
      const started = performance.now();
      const flood = client.callTool({ name: 'lists_progress_flood', arguments: { ms: 1500 } }, undefined, {
        onprogress: (p) => void reports.push(p.progress),
        timeout: 50_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const t0 = performance.now();
      const info = await client.callTool({ name: 'system_info', arguments: {} });
      expect(info.isError).toBeFalsy();
      expect(performance.now() - t0).toBeLessThan(3000);
      const result = await flood;
      const sent = Number(/sent (\d+)/.exec(texts(result as never))?.[1]);
      const seconds = (performance.now() - started) / 1000;
      expect(sent).toBeGreaterThan(1000);
      expect(reports.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
      // The last report before the answer is the last the upstream sent.
      expect(reports.at(-1)).toBe(sent);
    } finally {
      await client.close();
      server.child.kill('SIGTERM');
    }
  });

  it('"Pause writes" hides every other server\'s tool and refuses a call naming the switch', async () => {
    const config = JSON.parse(fs.readFileSync(home.configFile, 'utf8'));
    const paused = path.join(home.home, 'paused.json');
    fs.writeFileSync(paused, JSON.stringify({ ...config, server: { ...config.server, readOnly: true } }));
    const server = await startCliHttp(['--config', paused], home.env);
    const client = await connect(server);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('system_info');
      expect(names.filter((n) => n.startsWith('lists'))).toEqual([]);
      const refused = await client.callTool({ name: 'lists_noop', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(texts(refused as never)).toMatch(/^CAPABILITY_DISABLED: lists_noop is another MCP server's tool, and the server is read-only/);
    } finally {
      await client.close();
      server.child.kill('SIGTERM');
    }
  });
});
