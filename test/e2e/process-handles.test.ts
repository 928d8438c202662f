/**
 * Processes across calls through real clients: process.start / output / write / status / stop,
 * shell.exec moving a long command to a handle, the concurrency slot a handle holds, and
 * binary output that stays small on the wire.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernRequest, postModern } from '../helpers/raw-rpc.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
let server: TestHttpServer;
beforeAll(async () => {
  dir = makeTempDir();
  fs.writeFileSync(
    path.join(dir, 'dev-server.js'),
    'console.log("listening on 5173"); process.stdin.on("data", (d) => console.log("reload " + d.toString().trim())); setInterval(() => {}, 1000);\n',
  );
  server = await startTestServer({
    filesystem: { roots: [dir] },
    shell: { enabled: true, allowedCommands: ['node', 'head'], maxRuntimeMs: 20_000, maxConcurrent: 1, maxOutputBytes: 2 * 1024 * 1024 },
  });
});
afterAll(async () => {
  await server.close();
  removeDir(dir);
});

type Structured = Record<string, unknown> & { processHandle: string; stdout: { text: string; nextOffset: number } };

describe.each([
  ['modern', connectModernHttp],
  ['legacy', connectLegacyHttp],
] as const)('%s client', (_kind, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect(server.url);
  });
  afterAll(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(textOf(result));
    return result.structuredContent as Structured;
  };

  it('drives a dev server across calls: start, read, write, status, stop', async () => {
    const started = await call('process.start', { command: 'node', args: ['dev-server.js'] });
    expect(started).toMatchObject({ state: 'running', stdinOpen: true });
    const first = await call('process.output', { processHandle: started.processHandle, waitMs: 5000 });
    expect(first.stdout.text).toBe('listening on 5173\n');
    await call('process.write', { processHandle: started.processHandle, data: 'src/app.ts\n' });
    const second = await call('process.output', { processHandle: started.processHandle, stdoutOffset: first.stdout.nextOffset, waitMs: 5000 });
    expect(second.stdout.text).toBe('reload src/app.ts\n');
    expect(await call('process.status', { processHandle: started.processHandle })).toMatchObject({ state: 'running' });
    expect(await call('process.stop', { processHandle: started.processHandle })).toMatchObject({ state: 'exited', signal: 'SIGTERM' });
  });

  it('moves a long shell.exec to a handle instead of losing it, with the output so far', async () => {
    const script = 'console.log("building"); setTimeout(() => console.log("built"), 700)';
    const result = await call('shell.exec', { command: 'node', args: ['-e', script], promoteAfterMs: 300 });
    expect(result).toMatchObject({ exitCode: null, stdout: 'building\n', timedOut: false });
    expect(result.processHandle).toMatch(/^proc_/);
    const rest = await call('process.output', { processHandle: result.processHandle, stdoutOffset: 9, waitMs: 5000 });
    expect(rest.stdout.text).toBe('built\n');
  });

  it('refuses what shell.exec refuses, and unknown handles', async () => {
    expect(textOf(await client.callTool({ name: 'process.start', arguments: { command: 'bash', args: [] } }))).toMatch(
      /^COMMAND_NOT_ALLOWED: bash is not in the allowed commands/,
    );
    expect(textOf(await client.callTool({ name: 'process.start', arguments: { command: 'node', cwd: '/etc' } }))).toMatch(/^PATH_NOT_ALLOWED: /);
    const unknown = await client.callTool({ name: 'process.output', arguments: { processHandle: 'proc_AAAAAAAAAAAAAAAAAAAAAAAA' } });
    expect(textOf(unknown)).toMatch(/^NOT_FOUND: no process has the handle/);
    expect((await client.callTool({ name: 'process.stop', arguments: { processHandle: '../../etc' } })).isError).toBe(true);
  });
});

describe('bounds', () => {
  it('a handle keeps its concurrency slot until it ends (shell.maxConcurrent 1)', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const held = (await client.callTool({ name: 'process.start', arguments: { command: 'node', args: ['dev-server.js'] } })).structuredContent as Structured;
      let done = false;
      const waiting = client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['-e', 'console.log(1)'] } }).then((r) => {
        done = true;
        return r;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(done).toBe(false);
      await client.callTool({ name: 'process.stop', arguments: { processHandle: held.processHandle } });
      expect((await waiting).structuredContent).toMatchObject({ exitCode: 0, stdout: '1\n' });
    } finally {
      await client.close();
    }
  });

  it('2 MiB of NUL bytes is a small answer: size and preview, not an escaped string', async () => {
    const response = await postModern(
      server.url,
      modernRequest(1, 'tools/call', { name: 'shell.exec', arguments: { command: 'head', args: ['-c', String(2 * 1024 * 1024), '/dev/zero'] } }),
    );
    const body = await response.text();
    expect(body.length).toBeLessThan(4096);
    expect(body).toContain('"stdoutBinary"');
    expect(body).toContain(`"bytes":${2 * 1024 * 1024}`);
  });
});
