/** Contract details (docs/TOOLS.md) that other files do not pin down. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../../main/mcp/answer/token-count.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv, startCliHttp, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const MARKER = 'marker-4242-should-never-be-logged';
let home: string;
let root: string;
let server: TestHttpServer;
let client: TestClient;

beforeAll(async () => {
  home = makeTempDir();
  root = path.join(home, 'root');
  fs.mkdirSync(path.join(root, 'many'), { recursive: true });
  for (let i = 0; i < 1005; i++) fs.writeFileSync(path.join(root, 'many', `f${String(i).padStart(4, '0')}.txt`), '');
  fs.writeFileSync(path.join(root, 'secret-notes.txt'), MARKER);
  server = await startTestServer({
    filesystem: { roots: [root] },
    shell: { enabled: true, allowedCommands: ['echo'] },
    process: { list: true, kill: true },
    // A caller may ask for up to 4 x 10,000 tokens: a whole page of 1000 entries as structured JSON.
    server: { answerBudgetTokens: 10_000 },
  });
  client = await connectModernHttp(server.url);
});
afterAll(async () => {
  await client.close();
  await server.close();
  removeDir(home);
});

describe('legacy handshakes', () => {
  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('serves initialize at %s statelessly on the same endpoint', async (version) => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = await res.text();
    expect(body).toContain(`"protocolVersion":"${version}"`);
    expect(body).toContain('"name":"chatgpt-computer-mcp"');
  });
});

describe('tool limits and refusals', () => {
  it('fs.list returns at most 1000 entries a page, sorted, and says where the next page starts', async () => {
    // The largest answer a caller may ask for: the page whole, not cut to the budget. Counted by the
    // encoding, as in a server that has cut an answer before (the first cut counts bytes, and comes out shorter).
    await loadTokenCounter();
    const listed = await client.callTool({ name: 'fs.list', arguments: { path: 'many', maxTokens: 40_000 } });
    const data = listed.structuredContent as { entries: Array<{ name: string }>; truncated: boolean; nextOffset: number; total: number };
    expect(data.entries).toHaveLength(1000);
    expect(data.truncated).toBe(true);
    expect(data.entries[0]!.name).toBe('f0000.txt');
    expect(data.entries[999]!.name).toBe('f0999.txt');
    expect(data.nextOffset).toBe(1000);
    const next = (await client.callTool({ name: 'fs.list', arguments: { path: 'many', offset: 1000 } })).structuredContent as typeof data;
    expect(next.entries[0]!.name).toBe('f1000.txt');
    expect(next.total).toBe(data.total);
  });

  it.each([
    [1, /pid 1 is the init process/],
    [process.pid, /is this MCP server/],
  ])('process.kill refuses pid %i', async (pid, message) => {
    const result = await client.callTool({ name: 'process.kill', arguments: { pid } });
    expect(textOf(result)).toMatch(new RegExp(`^INVALID_INPUT: .*${message.source}`));
  });
});

describe('diagnostics', () => {
  it('log tool calls without file contents, command output or arguments', async () => {
    expect((await client.callTool({ name: 'fs.read', arguments: { path: 'secret-notes.txt' } })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'shell.exec', arguments: { command: 'echo', args: [MARKER] } })).isError).toBeFalsy();
    const calls = server.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'tool call');
    expect(calls.map((entry) => entry.tool)).toEqual(expect.arrayContaining(['fs.read', 'shell.exec']));
    expect(calls.find((entry) => entry.tool === 'shell.exec')).toMatchObject({ command: 'echo', argc: 1, outcome: 'ok' });
    expect(server.logLines.join('')).not.toContain(MARKER);
  });
});

describe('the headless CLI', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops cleanly on %s with exit code 0', async (signal) => {
    const config = writeJson(path.join(home, 'cli.json'), { filesystem: { roots: [root] } });
    const { child, url } = await startCliHttp(['--config', config], childEnv(home));
    expect((await fetch(url.replace('/mcp', '/healthz'))).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    expect(await exited).toBe(0);
  });
});
