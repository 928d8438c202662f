/**
 * Processes across calls through real clients: process.start / output / write / status / stop,
 * shell.exec moving a long command to a handle (which then outlives shell.maxRuntimeMs), handles
 * that hold no concurrency slot, all handles taken, and binary output that stays small on the wire.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernRequest, postModern } from '../helpers/raw-rpc.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { adapterWith } from '../helpers/adapter.js';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { ExecRequest } from '../../adapter/contract/processes.js';
import { DEFAULT_PROMOTE_AFTER_MS } from '../../main/policy/shell.js';

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
  it('a running handle gives its concurrency slot back: with shell.maxConcurrent 1, a shell.exec still runs at once', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const held = (await client.callTool({ name: 'process.start', arguments: { command: 'node', args: ['dev-server.js'] } })).structuredContent as Structured;
      const promoted = (await client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['dev-server.js'], promoteAfterMs: 300 } }))
        .structuredContent as Structured;
      expect(promoted.processHandle).toMatch(/^proc_/);
      const t0 = Date.now();
      const quick = await client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['-e', 'console.log(1)'] } });
      expect(quick.structuredContent).toMatchObject({ exitCode: 0, stdout: '1\n' });
      expect(Date.now() - t0).toBeLessThan(10_000); // not the 30 s queue wait, and no TIMEOUT
      for (const handle of [held.processHandle, promoted.processHandle]) await client.callTool({ name: 'process.stop', arguments: { processHandle: handle } });
    } finally {
      await client.close();
    }
  });

  it('1000 KiB to a process that never reads its input: the call returns after the wait with what was left, and the server answers meanwhile', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const started = (await client.callTool({ name: 'process.start', arguments: { command: 'node', args: ['-e', 'setTimeout(() => {}, 60000)'] } }))
        .structuredContent as Structured;
      const data = 'x'.repeat(1000 * 1024);
      const t0 = Date.now();
      const writing = client.callTool({ name: 'process.write', arguments: { processHandle: started.processHandle, data, close: true } });
      const info = await client.callTool({ name: 'system.info', arguments: {} });
      expect(info.isError).toBeFalsy();
      const written = await writing;
      expect(Date.now() - t0).toBeLessThan(15_000);
      const result = written.structuredContent as { bytesWritten: number; bytesLeft: number; charsWritten: number; stdinOpen: boolean };
      expect(result.bytesLeft).toBeGreaterThan(0);
      expect(result.bytesWritten + result.bytesLeft).toBe(data.length);
      expect(result.stdinOpen).toBe(true);
      expect(textOf(written)).toContain(`call process.write again with data from character ${result.charsWritten}`);
      await client.callTool({ name: 'process.stop', arguments: { processHandle: started.processHandle, force: true } });
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

describe('promotion under small limits (shell.maxRuntimeMs 1 s, maxConcurrent 2, maxProcesses 3)', () => {
  let small: TestHttpServer;
  let client: TestClient;
  beforeAll(async () => {
    small = await startTestServer({
      filesystem: { roots: [dir] },
      shell: { enabled: true, allowedCommands: ['node', 'sleep'], maxRuntimeMs: 1000, maxConcurrent: 2, maxProcesses: 3 },
    });
    client = await connectModernHttp(small.url);
  });
  afterAll(async () => {
    await client.close();
    await small.close();
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(textOf(result));
    return { structured: result.structuredContent as Structured, text: textOf(result) };
  };
  const stop = (handle: string) => call('process.stop', { processHandle: handle, force: true });

  it('a promoted command outlives shell.maxRuntimeMs and ends when it exits', async () => {
    const script = 'console.log("testing"); setTimeout(() => { console.log("142 passed"); process.exit(0); }, 2500)';
    const { structured } = await call('shell.exec', { command: 'node', args: ['-e', script], promoteAfterMs: 300 });
    expect(structured).toMatchObject({ exitCode: null, timedOut: false, stdout: 'testing\n' });
    let out = (await call('process.output', { processHandle: structured.processHandle, stdoutOffset: 8, waitMs: 5000 })).structured;
    if (out.state === 'running') out = (await call('process.output', { processHandle: structured.processHandle, stdoutOffset: 20, waitMs: 5000 })).structured;
    expect(out).toMatchObject({ state: 'exited', exitCode: 0, signal: null, timedOut: false });
    expect(out.durationMs as number).toBeGreaterThan(2400);
  });

  it('without promoteAfterMs the call moves it to a handle at shell.maxRuntimeMs, the longest a call waits', async () => {
    const t0 = Date.now();
    const { structured, text } = await call('shell.exec', { command: 'sleep', args: ['30'] });
    expect(structured.processHandle).toMatch(/^proc_/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(text).toMatch(/still running after \d+ ms; it goes on as proc_/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await call('process.status', { processHandle: structured.processHandle })).structured).toMatchObject({ state: 'running' });
    expect((await stop(structured.processHandle)).structured).toMatchObject({ state: 'exited', timedOut: false });
  });

  it('timeoutMs given: killed at the timeout, no handle', async () => {
    const marker = `timeout-marker-${process.pid}`;
    const script = `setInterval(() => {}, 1000); // ${marker}`;
    const { structured, text } = await call('shell.exec', { command: 'node', args: ['-e', script], timeoutMs: 600 });
    expect(structured).toMatchObject({ exitCode: null, timedOut: true });
    expect(structured.processHandle).toBeUndefined();
    expect(text).toMatch(/timed out after \d+ ms/);
    // Gone, not left running under a handle (pgrep: the sandbox has its own pid numbers).
    expect(spawnSync('pgrep', ['-f', marker]).status).toBe(1);
  });

  it('maxProcesses handles running: shell.exec calls still run at once, up to maxConcurrent side by side', async () => {
    const handles = [
      (await call('process.start', { command: 'sleep', args: ['30'] })).structured.processHandle,
      (await call('process.start', { command: 'sleep', args: ['30'] })).structured.processHandle,
      (await call('shell.exec', { command: 'sleep', args: ['30'], promoteAfterMs: 200 })).structured.processHandle,
    ];
    try {
      expect(handles.every((h) => /^proc_/.test(h))).toBe(true);
      const t0 = Date.now();
      const both = await Promise.all([0, 1].map((i) => call('shell.exec', { command: 'node', args: ['-e', `setTimeout(() => console.log(${i}), 300)`] })));
      expect(both.map((r) => r.structured.stdout)).toEqual(['0\n', '1\n']);
      expect(Date.now() - t0).toBeLessThan(5000);
      // A fourth handle is refused, naming the bound.
      const refused = await client.callTool({ name: 'process.start', arguments: { command: 'sleep', args: ['30'] } });
      expect(textOf(refused)).toMatch(/^OUTPUT_LIMIT: 3 processes are running under handles.*shell\.maxProcesses is 3/);
    } finally {
      for (const handle of handles) await stop(handle);
    }
  });

  it('a flood of promoted calls never runs more than maxConcurrent + maxProcesses children', async () => {
    const marker = ['30.4242'];
    // The sleep itself, not the bwrap that launches it: its command line starts with the program.
    const running = () => Number(spawnSync('pgrep', ['-c', '-f', '^\\S*sleep 30\\.4242']).stdout.toString().trim() || 0);
    let peak = 0;
    let done = false;
    const calls = Promise.all(
      Array.from({ length: 16 }, () => client.callTool({ name: 'shell.exec', arguments: { command: 'sleep', args: marker, promoteAfterMs: 100 } })),
    ).finally(() => (done = true));
    while (!done) {
      peak = Math.max(peak, running());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const results = await calls;
    const handles = results.map((r) => (r.structuredContent as Partial<Structured> | undefined)?.processHandle).filter((h): h is string => !!h);
    try {
      expect(handles).toHaveLength(3);
      expect(peak).toBeLessThanOrEqual(2 + 3);
      expect(peak).toBeGreaterThanOrEqual(4);
      const texts = results.filter((r) => !(r.structuredContent as Partial<Structured> | undefined)?.processHandle).map(textOf);
      expect(texts.every((t) => /all 3 handles \(shell\.maxProcesses\)|^TIMEOUT: .*shell\.maxConcurrent is 2/.test(t))).toBe(true);
    } finally {
      for (const handle of handles) await stop(handle);
    }
    expect(running()).toBe(0);
  });

  it('all handles taken: the call waits for the command as before, then says why it got no handle', async () => {
    const handles: string[] = [];
    for (let i = 0; i < 3; i++) handles.push((await call('process.start', { command: 'sleep', args: ['30'] })).structured.processHandle);
    try {
      const ends = await call('shell.exec', { command: 'node', args: ['-e', 'setTimeout(() => console.log("done"), 500)'], promoteAfterMs: 200 });
      expect(ends.structured).toMatchObject({ exitCode: 0, stdout: 'done\n', handlesFull: true });
      expect(ends.text).toMatch(/not moved to a handle at 200 ms: all 3 handles \(shell\.maxProcesses\) hold running processes/);
      const killed = await call('shell.exec', { command: 'sleep', args: ['30'], promoteAfterMs: 200 });
      expect(killed.structured).toMatchObject({ timedOut: true, handlesFull: true });
      expect(killed.structured.processHandle).toBeUndefined();
      expect(killed.text).toMatch(/^sleep: timed out after \d+ ms/);
      expect(killed.text).toMatch(/waited for it \(up to 1000 ms\); process\.stop frees one/);
    } finally {
      for (const handle of handles) await stop(handle);
    }
  });
});

describe('the promotion default reaching the command', () => {
  it('without promoteAfterMs or timeoutMs, shell.exec asks for promotion after 60 s, with no deadline under the handle', async () => {
    const base = createLocalAdapter();
    const seen: ExecRequest[] = [];
    const adapter = adapterWith({ processes: { ...base.processes, runCommand: (request) => (seen.push(request), base.processes.runCommand(request)) } }, base);
    const plain = await startTestServer({ filesystem: { roots: [dir] }, shell: { enabled: true, allowedCommands: ['node'] } }, { adapter });
    const client = await connectModernHttp(plain.url);
    try {
      const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['-e', 'console.log(1)'] } });
      expect(result.structuredContent).toMatchObject({ exitCode: 0, stdout: '1\n' });
      await client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['-e', '0'], timeoutMs: 5000 } });
      expect(seen.map(({ timeoutMs, promoteAfterMs, keepTimeout }) => ({ timeoutMs, promoteAfterMs, keepTimeout }))).toEqual([
        { timeoutMs: 120_000, promoteAfterMs: DEFAULT_PROMOTE_AFTER_MS, keepTimeout: undefined },
        { timeoutMs: 5000, promoteAfterMs: undefined, keepTimeout: undefined },
      ]);
      expect(DEFAULT_PROMOTE_AFTER_MS).toBe(60_000);
    } finally {
      await client.close();
      await plain.close();
    }
  });
});
