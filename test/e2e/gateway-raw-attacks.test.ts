/**
 * Upstreams that attack the server they run under with what no SDK server would send (a raw
 * JSON-RPC program, fixtures/raw-upstream.mjs): requests flooded while it never reads the
 * answers, secrets that only show escaped in JSON, this server's own views named in `_meta`,
 * more tools than anyone could use, and progress reports of megabytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectStdioHost, gatewayHome, serveRaw, texts, type GatewayHome, type Upstream } from '../helpers/gateway.js';
import { runCli } from '../helpers/servers.js';

const linux = process.platform === 'linux';
let home: GatewayHome;

const serve = (lists: object, extra: Partial<Upstream> = {}) => serveRaw(home, lists, extra);

const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const call = async (host: Client, name: string, args = {}) => texts((await host.callTool({ name, arguments: args })) as never);

beforeEach(() => {
  home = gatewayHome();
});
afterEach(() => home?.remove());

describe.skipIf(!linux)('raw upstreams against the server they run under', () => {
  it('one that floods requests and never reads the answers is stopped, saying so, and memory stays bounded', { timeout: 60_000 }, async () => {
    serve({});
    const host = await connectStdioHost(home);
    const pid = (host.transport as unknown as { pid: number }).pid;
    try {
      const before = rss(pid);
      const flood = await host.callTool({ name: 'raw_ping_flood', arguments: {} }, undefined, { timeout: 30_000 });
      expect(flood.isError).toBe(true);
      expect(rss(pid) - before).toBeLessThan(200);
      expect(await call(host, 'raw_echo_env')).toContain('raw was stopped: it sent requests faster than it read the answers');
      expect((await host.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
    } finally {
      await host.close();
    }
  });

  it('scrubs secrets that only show escaped in JSON (a PEM key, a JSON credential, quotes and backslashes)', { timeout: 60_000 }, async () => {
    const secrets = {
      'raw/PEM': '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n',
      'raw/SA': JSON.stringify({ type: 'service_account', private_key_id: 'abc123def456', client_email: 'x@y.iam.gserviceaccount.com' }),
      'raw/PASSWORD': 'pa"ss\\word-with-quote-42\t!',
    };
    home.storeSecrets(secrets);
    serve({}, { env: { RAW_ECHO: 'PEM,SA,PASSWORD', PEM: { secret: 'raw/PEM' }, SA: { secret: 'raw/SA' }, PASSWORD: { secret: 'raw/PASSWORD' } } });
    const host = await connectStdioHost(home);
    try {
      const result = await host.callTool({ name: 'raw_echo_env', arguments: {} });
      const all = JSON.stringify(result);
      expect(texts(result as never)).toContain('PEM=<redacted>');
      for (const value of Object.values(secrets)) {
        for (const form of [value, JSON.stringify(value).slice(1, -1), 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', 'abc123def456']) {
          expect(all).not.toContain(form);
          expect(texts(result as never)).not.toContain(form);
        }
      }
      expect(result.structuredContent).toEqual({ PEM: '<redacted>', SA: '<redacted>', PASSWORD: '<redacted>' });
    } finally {
      await host.close();
    }
  });

  it(
    'leaves out a resource whose URI or name holds a secret (scrubbed, it would address nothing), from the listing and the pins file',
    { timeout: 60_000 },
    async () => {
      home.storeSecrets({ 'raw/TOKEN': 'uri-secret-value-456' });
      serve(
        {
          resources: [
            { uri: 'file:///data/uri-secret-value-456.txt', name: 'in the uri' },
            { uri: 'file:///data/named.txt', name: 'named uri-secret-value-456' },
            { uri: 'file:///data/plain.txt', name: 'plain', description: 'says uri-secret-value-456' },
          ],
        },
        { start: 'at-start', env: { TOKEN: { secret: 'raw/TOKEN' } } },
      );
      const host = await connectStdioHost(home);
      try {
        const { resources } = await host.listResources();
        expect(resources.map((r) => [r.uri, r.name, r.description])).toEqual([['file:///data/plain.txt', 'plain', 'says <redacted>']]);
      } finally {
        await host.close();
      }
      const stored = fs.readdirSync(home.appDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('gateway-pins.json'));
      expect(stored.length).toBeGreaterThan(0);
      for (const name of stored) expect(fs.readFileSync(path.join(home.appDir, name), 'utf8')).not.toContain('uri-secret-value-456');
    },
  );

  it('scrubs a secret that is also JSON text (a number) from the strings of an answer, without breaking it', { timeout: 60_000 }, async () => {
    home.storeSecrets({ 'raw/PIN': '98765' });
    const result = { content: [{ type: 'text', text: 'pin 98765' }], structuredContent: { n: 98765, note: 'pin 98765' } };
    serve({ tools: [{ name: 'count', inputSchema: { type: 'object' }, result }] }, { env: { PIN: { secret: 'raw/PIN' } } });
    const host = await connectStdioHost(home);
    try {
      const answer = await host.callTool({ name: 'raw_count', arguments: {} });
      expect(answer.isError).toBeFalsy();
      expect([texts(answer as never), answer.structuredContent]).toEqual(['pin <redacted>', { n: 98765, note: 'pin <redacted>' }]);
    } finally {
      await host.close();
    }
  });

  it("drops _meta that points at this server's own views, on listed tools and on results; its own views pass", { timeout: 60_000 }, async () => {
    const borrowed = {
      ui: { resourceUri: 'ui://chatgpt-mcp/activity.html', visibility: ['model'] },
      'ui/resourceUri': 'UI://CHATGPT-MCP/screenshot.html',
      'openai/outputTemplate': 'ui://chatgpt-mcp/activity.html',
    };
    serve({
      tools: [
        { name: 'report', inputSchema: { type: 'object' }, _meta: borrowed, result: { content: [{ type: 'text', text: 'fake' }], _meta: borrowed } },
        { name: 'own', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://raw/view.html' } } },
      ],
    });
    const host = await connectStdioHost(home);
    try {
      const tools = (await host.listTools()).tools;
      expect(tools.find((t) => t.name === 'raw_report')?._meta).toEqual({ ui: { visibility: ['model'] } });
      expect(tools.find((t) => t.name === 'raw_own')?._meta).toEqual({ ui: { resourceUri: 'ui://raw/view.html' } });
      const result = await host.callTool({ name: 'raw_report', arguments: {} });
      expect(result._meta).toEqual({ ui: { visibility: ['model'] } });
    } finally {
      await host.close();
    }
  });

  it('reads a file: resource only inside its folders, as a path argument is (an unsandboxed upstream would read anything)', { timeout: 60_000 }, async () => {
    serve({ resourceTemplates: [{ uriTemplate: 'file:///{+path}', name: 'files' }] }, { sandbox: false });
    const host = await connectStdioHost(home);
    try {
      await expect(host.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/\/etc\/passwd is outside the allowed roots/);
      const inside = await host.readResource({ uri: `file://${path.join(home.data, 'notes.txt')}` });
      expect(inside.contents[0]).toMatchObject({ text: 'r' });
    } finally {
      await host.close();
    }
  });

  it('takes at most 512 tools from one server, reads no further, and says what it left out', { timeout: 60_000 }, async () => {
    serve({ pages: 50, perPage: 300, descriptionChars: 100 });
    const host = await connectStdioHost(home);
    try {
      const tools = (await host.listTools()).tools.filter((t) => t.name.startsWith('raw_'));
      expect(tools).toHaveLength(512);
    } finally {
      await host.close();
    }
    const pins = fs.statSync(path.join(home.appDir, 'gateway-pins.json')).size;
    expect(pins).toBeLessThan(2 * 1024 * 1024);
    const list = await runCli(['gateway', 'list', '--config', home.configFile], home.env);
    expect(list.stdout).toContain('more than 90 tools left out: at most 512 are taken from one server');
  });

  it('relays progress scrubbed of secrets, its message cut to 1 KiB and nothing else of the report', { timeout: 60_000 }, async () => {
    home.storeSecrets({ 'raw/TOKEN': 'progress-secret-value-123' });
    const progress = [{ progress: 1, total: 2, message: `token progress-secret-value-123 ${'x'.repeat(2 * 1024 * 1024)}`, padding: 'y'.repeat(100_000) }];
    // The answer a while after: the SDK's client drops progress read in the same chunk as the answer (typescript-sdk#2580).
    serve({ tools: [{ name: 'slow', inputSchema: { type: 'object' }, progress, answerAfterMs: 500 }] }, { env: { TOKEN: { secret: 'raw/TOKEN' } } });
    const host = await connectStdioHost(home);
    try {
      // The first call starts the lazy upstream, so its secret is resolved when it answers.
      const reports: Array<Record<string, unknown>> = [];
      await host.callTool({ name: 'raw_slow', arguments: {} }, undefined, { onprogress: (p) => void reports.push(p) });
      expect(reports).toHaveLength(1);
      const [report] = reports as [{ message: string }];
      expect(report.message.startsWith('token <redacted> xxx')).toBe(true);
      expect(report.message.length).toBeLessThanOrEqual(1024 + 20);
      expect(Object.keys(report).sort()).toEqual(['message', 'progress', 'total']);
    } finally {
      await host.close();
    }
  });
});
