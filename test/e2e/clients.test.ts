/**
 * Protocol versions with real clients: the v2 client pinned to 2026-07-28 and the v1
 * client (legacy initialize), each over HTTP (ephemeral port) and stdio (child process).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacyHttp, connectLegacyStdio, connectModernHttp, connectModernStdio, textOf, type TestClient } from '../helpers/clients.js';
import { modernRequest, postModern } from '../helpers/raw-rpc.js';
import { CLI, childEnv, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

const TOKEN = 'test-token-0123456789abcdef';

let home: string;
let configFile: string;
let server: TestHttpServer;

beforeAll(async () => {
  home = makeTempDir();
  configFile = writeJson(path.join(home, 'config.json'), { server: { token: TOKEN, logLevel: 'debug' } });
  server = await startTestServer({ server: { token: TOKEN } });
});

afterAll(async () => {
  await server.close();
  removeDir(home);
});

const transports: Array<[string, () => Promise<TestClient>]> = [
  ['modern 2026-07-28 over HTTP', () => connectModernHttp(server.url, TOKEN)],
  ['legacy initialize over HTTP', () => connectLegacyHttp(server.url, TOKEN)],
  ['modern 2026-07-28 over stdio', () => connectModernStdio(['--config', configFile], childEnv(home) as Record<string, string>)],
  ['legacy initialize over stdio', () => connectLegacyStdio(['--config', configFile], childEnv(home) as Record<string, string>)],
];

describe.each(transports)('%s', (_name, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('lists only the enabled tools, with schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['system.info']);
    expect(tools[0]?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools[0]?.outputSchema).toBeTypeOf('object');
  });

  it('calls system.info and gets structured content plus text, never the token', async () => {
    const result = await client.callTool({ name: 'system.info', arguments: {} });
    expect(result.isError).toBeFalsy();
    const info = result.structuredContent as { hostname: string; platform: string; capabilities: { tools: string[]; shell: { enabled: boolean } } };
    expect(info.hostname).toBe(os.hostname());
    expect(info.platform).toBe(process.platform);
    // The names the server exposes (underscores over the CLI by default, dotted in-process here).
    expect(info.capabilities.tools).toEqual((await client.rawListTools()).tools.map((t) => t.name));
    expect(info.capabilities.shell.enabled).toBe(false);
    expect(textOf(result)).toContain(os.hostname());
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('rejects a disabled tool without executing it', async () => {
    const outcome = await client.callTool({ name: 'shell.exec', arguments: { command: 'true' } }).then(
      (result) => ({ error: result.isError ? textOf(result) : null }),
      (error: Error) => ({ error: error.message }),
    );
    expect(outcome.error).toMatch(/not found|CAPABILITY_DISABLED/i);
  });
});

describe('modern stateless HTTP', () => {
  it('serves independent requests with no session id, in any order', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    // No initialize, no discover first: a tools/call on its own must work.
    const call = await postModern(server.url, modernRequest(7, 'tools/call', { name: 'system.info', arguments: {} }), auth);
    expect(call.status).toBe(200);
    expect(call.headers.get('mcp-session-id')).toBeNull();
    const body = (await call.json()) as { id: number; result: { structuredContent: { hostname: string } } };
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.hostname).toBe(os.hostname());

    const [a, b] = await Promise.all([
      postModern(server.url, modernRequest(1, 'tools/list'), auth),
      postModern(server.url, modernRequest(1, 'server/discover'), auth),
    ]);
    expect(a.headers.get('mcp-session-id')).toBeNull();
    expect(((await a.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(1);
    const discover = (await b.json()) as { result: { supportedVersions?: string[] } & Record<string, unknown> };
    expect(JSON.stringify(discover.result)).toContain('2026-07-28');
  });
});

describe('stdio', () => {
  it('writes nothing but protocol messages on stdout, and diagnostics on stderr', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', configFile, '--log-level', 'debug'], {
      env: childEnv(home),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write(JSON.stringify(init) + '\n');
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'system_info', arguments: {} } }) + '\n');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply: ${stderr}`)), 10_000);
      child.stdout.on('data', () => {
        if (stdout.includes('"id":2')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.stdin.end();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // Diagnostics exist, and they are on stderr as JSON lines.
    const logs = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; tool?: string });
    // Logged by the name the client called, as it is exposed.
    expect(logs.some((l) => l.msg === 'tool call' && l.tool === 'system_info')).toBe(true);
    expect(stderr).not.toContain(TOKEN);
    expect(fs.existsSync(configFile)).toBe(true);
  });
});

describe("tool names: underscores by default (hosts reject dots), the contract's dotted names on request", () => {
  it('the CLI exposes and serves every tool under a name matching ^[a-zA-Z0-9_-]{1,64}$ by default', async () => {
    const home = makeTempDir();
    try {
      const client = await connectModernStdio([], childEnv(home) as Record<string, string>);
      const names = (await client.rawListTools()).tools.map((t) => t.name);
      expect(names).toEqual(['system_info']);
      const info = await client.callTool({ name: 'system_info', arguments: {} });
      expect((info.structuredContent as { capabilities: { tools: string[] } }).capabilities.tools).toEqual(['system_info']);
      await client.close();
    } finally {
      removeDir(home);
    }
  });

  it.each([
    ['underscore', ['system_info', 'process_list', 'answer_more']],
    ['dotted', ['system.info', 'process.list', 'answer.more']],
  ] as const)('toolNames "%s"', async (toolNames, expected) => {
    const server = await startTestServer({ server: { toolNames }, process: { list: true } });
    try {
      const client = await connectModernHttp(server.url);
      const names = (await client.rawListTools()).tools.map((t) => t.name);
      expect(names).toEqual(expected);
      if (toolNames === 'underscore') for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const info = await client.callTool({ name: expected[0], arguments: {} });
      expect((info.structuredContent as { capabilities: { tools: string[] } }).capabilities.tools).toEqual(names);
      await client.close();
    } finally {
      await server.close();
    }
  });
});
