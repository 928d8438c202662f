/**
 * ChatGPT's `search` and `fetch` (connectors and deep research outside developer mode accept
 * only servers with exactly these names and shapes): an owner option, read-only over the roots,
 * through the same policy as the fs tools. Real servers, v2 and v1 clients, real trees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir } from '../helpers/temp.js';

let home: string;
let root: string;
let ro: string;
let outside: string;
let configFile: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  ({ home, root, outside } = makeRootAndOutside());
  ro = path.join(home, 'notes');
  fs.mkdirSync(ro);
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  write(path.join(root, 'docs/quarterly-report.md'), '# Quarterly report\nRevenue grew in the third quarter.\n');
  write(path.join(root, 'docs/summary.txt'), 'Revenue and costs, summarised.\n');
  write(path.join(root, 'src/revenue.ts'), 'export const total = 1;\n');
  write(path.join(root, 'other.txt'), 'nothing relevant\n');
  write(path.join(ro, 'meeting.md'), 'We discussed revenue targets.\n');
  write(path.join(root, '.env'), 'REVENUE_TOKEN=revenue-secret-value\n');
  write(path.join(root, 'revenue.key'), 'revenue key\n');
  write(path.join(root, 'private/revenue.txt'), 'revenue, denied\n');
  write(path.join(outside, 'revenue.txt'), 'revenue outside\n');
  fs.symlinkSync(outside, path.join(root, 'linked'));
  configFile = path.join(root, 'chatgpt-mcp.json');
  write(configFile, '{"note":"revenue in the config"}\n');
});
afterAll(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  removeDir(home);
});

const grants = (extra: Partial<ConfigInput> = {}): ConfigInput => ({
  filesystem: { read: true, roots: [root, { path: ro, readOnly: true }], deny: ['**/private/**'] },
  chatgpt: { searchFetch: true },
  ...extra,
});

async function serve(input: ConfigInput): Promise<TestHttpServer> {
  const server = await startTestServer(input, { protectedFiles: [configFile] });
  open.push(server);
  return server;
}
async function connect(kind: 'modern' | 'legacy', url: string): Promise<TestClient> {
  const client = kind === 'modern' ? await connectModernHttp(url) : await connectLegacyHttp(url);
  open.push(client);
  return client;
}

describe('the owner option', () => {
  it('is off by default: no search or fetch tool, even with readable roots', async () => {
    const server = await serve({ filesystem: { read: true, roots: [root] } });
    const client = await connect('modern', server.url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('fs.search');
    expect(names).not.toContain('search');
    expect(names).not.toContain('fetch');
    // It exists but is not granted: the answer says so and names the setting.
    const refused = await client.callTool({ name: 'search', arguments: { query: 'revenue' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^CAPABILITY_DISABLED: search exists but is not granted .*chatgpt\.searchFetch/);
  });

  it('needs readable roots too', async () => {
    const server = await serve({ chatgpt: { searchFetch: true }, filesystem: { read: false, roots: [root] } });
    const names = (await (await connect('modern', server.url)).listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('search');
  });

  it('keeps the exact names search and fetch when the other tools are named with underscores', async () => {
    const server = await serve(grants({ server: { toolNames: 'underscore' } }));
    const client = await connect('legacy', server.url);
    const { tools } = await client.rawListTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search', 'fetch', 'fs_search', 'fs_read']));
    expect(names).not.toContain('fs.search');
    const found = await client.callTool({ name: 'search', arguments: { query: 'quarterly' } });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { results: unknown[] }).results).toHaveLength(1);
  });
});

describe.each(['modern', 'legacy'] as const)('search and fetch through the %s client', (kind) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect(kind, (await serve(grants())).url);
  });

  it('are listed read-only, with the shapes ChatGPT expects', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.search?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.fetch?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.search?.outputSchema).toMatchObject({ properties: { results: { type: 'array' } } });
    expect(byName.fetch?.outputSchema).toMatchObject({ required: expect.arrayContaining(['id', 'title', 'text', 'url', 'metadata']) });
  });

  it('search returns {results: [{id, title, url}]}, best match first, as structured content and as its JSON text', async () => {
    const result = await client.callTool({ name: 'search', arguments: { query: 'Revenue quarterly' } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { results: Array<{ id: string; title: string; url: string }> };
    expect(JSON.parse(textOf(result))).toEqual(structured);
    expect(Object.keys(structured)).toEqual(['results']);
    for (const hit of structured.results) expect(Object.keys(hit).sort()).toEqual(['id', 'title', 'url']);
    const report = path.join(root, 'docs/quarterly-report.md');
    // Both words (one in the name, both in the text) before files with one of them, then by id (the absolute path).
    expect(structured.results[0]).toEqual({ id: report, title: 'docs/quarterly-report.md', url: pathToFileURL(report).href });
    expect(structured.results.map((r) => r.id)).toEqual([
      report,
      ...[path.join(ro, 'meeting.md'), path.join(root, 'docs/summary.txt'), path.join(root, 'src/revenue.ts')].sort(),
    ]);
  });

  it('never returns secrets, denied files, the config file, or files behind a link out of the roots', async () => {
    const result = await client.callTool({ name: 'search', arguments: { query: 'revenue' } });
    const text = textOf(result);
    for (const absent of ['.env', 'revenue.key', 'private', 'chatgpt-mcp.json', 'linked', outside, 'revenue-secret-value']) expect(text).not.toContain(absent);
  });

  it('fetch reads a result by its id: {id, title, text, url, metadata}', async () => {
    const found = await client.callTool({ name: 'search', arguments: { query: 'meeting' } });
    const [hit] = (found.structuredContent as { results: Array<{ id: string }> }).results;
    const fetched = await client.callTool({ name: 'fetch', arguments: { id: hit!.id } });
    expect(fetched.isError).toBeFalsy();
    const meeting = path.join(ro, 'meeting.md');
    const expected = {
      id: meeting,
      title: 'meeting.md',
      text: 'We discussed revenue targets.\n',
      url: pathToFileURL(meeting).href,
      metadata: { path: meeting, bytes: 30, totalBytes: 30, truncated: false },
    };
    expect(fetched.structuredContent).toEqual(expected);
    expect(JSON.parse(textOf(fetched))).toEqual(expected);
  });

  it('fetch goes through the policy: secrets, denied and protected files, outside paths and links out are refused', async () => {
    for (const id of [
      path.join(root, '.env'),
      path.join(root, 'revenue.key'),
      path.join(root, 'private/revenue.txt'),
      configFile,
      path.join(outside, 'revenue.txt'),
      path.join(root, 'linked/revenue.txt'),
      '../outside/revenue.txt',
    ]) {
      const fetched = await client.callTool({ name: 'fetch', arguments: { id } });
      expect(fetched.isError, id).toBe(true);
      expect(textOf(fetched)).toMatch(/^PATH_NOT_ALLOWED: /);
      expect(textOf(fetched)).not.toContain('revenue-secret-value');
      expect(textOf(fetched)).not.toContain('revenue outside');
    }
    expect(textOf(await client.callTool({ name: 'fetch', arguments: { id: path.join(root, 'docs') } }))).toMatch(/^INVALID_INPUT: /);
    expect(textOf(await client.callTool({ name: 'fetch', arguments: { id: path.join(root, 'missing.md') } }))).toMatch(/^NOT_FOUND: /);
  });

  it('ranks by files: a file with hundreds of matching lines early in the tree does not crowd out later ones', async () => {
    fs.mkdirSync(path.join(root, 'aaa'), { recursive: true });
    fs.writeFileSync(path.join(root, 'aaa/noisy.log.txt'), 'zebra\n'.repeat(1000));
    fs.writeFileSync(path.join(root, 'zzz-notes.txt'), 'zebra and giraffe\n');
    try {
      const result = await client.callTool({ name: 'search', arguments: { query: 'zebra giraffe' } });
      const ids = (result.structuredContent as { results: Array<{ id: string }> }).results.map((r) => r.id);
      expect(ids[0]).toBe(path.join(root, 'zzz-notes.txt'));
      expect(ids).toContain(path.join(root, 'aaa/noisy.log.txt'));
    } finally {
      fs.rmSync(path.join(root, 'aaa'), { recursive: true });
      fs.rmSync(path.join(root, 'zzz-notes.txt'));
    }
  });

  it('an empty or one-letter query finds nothing, without an error', async () => {
    const result = await client.callTool({ name: 'search', arguments: { query: 'a ! ?' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ results: [] });
  });
});
