/**
 * Attacks on the process tools, through real MCP clients against real servers: thread ids that
 * name the server, its parent, init and kernel threads; other users' processes with ownOnly;
 * secrets in other programs' command lines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { childEnv, startCliHttp, startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import { otherThreadIds, someKernelThread, startThreadedChild } from '../helpers/threads.js';

const linux = process.platform === 'linux';
const asRoot = linux && process.geteuid?.() === 0;

let home: string;
beforeAll(() => {
  home = makeTempDir();
});
afterAll(() => removeDir(home));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function inProcess(input: ConfigInput): Promise<TestClient> {
  const server = await startTestServer(input);
  open.push(server);
  const client = await connectModernHttp(server.url);
  open.push(client);
  return client;
}

const kill = (client: TestClient, pid: number, signal = 'SIGTERM') => client.callTool({ name: 'process.kill', arguments: { pid, signal } });

/** system.info within `ms`, or a failure saying the server hangs. */
async function answersWithin(client: TestClient, ms: number): Promise<void> {
  const started = Date.now();
  const result = await Promise.race([
    client.callTool({ name: 'system.info', arguments: {} }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the server did not answer within ${ms} ms`)), ms)),
  ]);
  expect(result.isError).toBeFalsy();
  expect(Date.now() - started).toBeLessThan(ms);
}

describe.skipIf(!linux)('process.kill against the server itself, by any of its ids', () => {
  it('a separate server process refuses SIGSTOP to each of its thread ids, its pid, its parent, init and kernel threads, and keeps answering', async () => {
    const config = writeJson(path.join(home, 'kill-config.json'), { server: { auth: 'none' }, process: { list: true, kill: true } });
    const server = await startCliHttp(['--config', config], childEnv(home));
    const pid = server.child.pid!;
    try {
      const client = await connectModernHttp(server.url);
      open.push(client);
      const threads = otherThreadIds(pid);
      expect(threads.length).toBeGreaterThan(2);
      for (const tid of threads) {
        const result = await kill(client, tid, 'SIGSTOP');
        expect(textOf(result)).toMatch(new RegExp(`^INVALID_INPUT: pid ${tid} \\(a thread of process ${pid}\\) is this MCP server`));
        await answersWithin(client, 5000);
      }
      expect(textOf(await kill(client, pid, 'SIGKILL'))).toMatch(/^INVALID_INPUT: pid \d+ is this MCP server/);
      // Its parent is this test process (as an MCP host would be), and for a stdio host the same rule holds.
      expect(textOf(await kill(client, process.pid, 'SIGCONT'))).toMatch(/^INVALID_INPUT: .*started this MCP server/);
      expect(textOf(await kill(client, 1, 'SIGKILL'))).toMatch(/^INVALID_INPUT: pid 1 is the init process.*process_kill may signal/);
      const kthread = someKernelThread();
      if (kthread !== null) expect(textOf(await kill(client, kthread, 'SIGSTOP'))).toMatch(/^INVALID_INPUT: .*kernel thread/);
      await answersWithin(client, 5000);
    } finally {
      server.child.kill('SIGCONT');
      server.child.kill('SIGKILL');
    }
  });

  it('an in-process server refuses the thread ids of the process it runs in (checked with SIGCONT, which the old code would have sent)', async () => {
    const client = await inProcess({ process: { kill: true } });
    for (const tid of otherThreadIds(process.pid)) {
      expect(textOf(await kill(client, tid, 'SIGCONT'))).toMatch(/is this MCP server/);
    }
  });

  it('a thread id of another process signals that process, and says so', async () => {
    const threaded = await startThreadedChild('kill-by-thread-marker');
    try {
      const client = await inProcess({ process: { kill: true } });
      const tid = threaded.threads[0]!;
      const result = await kill(client, tid, 'SIGTERM');
      expect(result.structuredContent).toEqual({ pid: threaded.pid, signal: 'SIGTERM' });
      expect(textOf(result)).toBe(`Sent SIGTERM to ${threaded.pid} (the process of thread ${tid})`);
      expect(await threaded.exited).toBe('SIGTERM');
    } finally {
      threaded.stop();
    }
  });
});

describe('process.list hides secrets in command lines', () => {
  let child: ChildProcess;
  beforeAll(async () => {
    const args = ['-e', 'setInterval(() => {}, 1000)', 'list-redaction-marker', '--password=hunter2', 'API_TOKEN=tok-abc', 'https://bob:pw-xyz@example.com/'];
    child = spawn(process.execPath, args, { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
  });
  afterAll(() => child.kill('SIGKILL'));

  it('shows *** for the values, and a match on a hidden value finds nothing', async () => {
    const client = await inProcess({ process: { list: true } });
    let args: string[] | undefined;
    for (let i = 0; i < 50 && !args?.includes('list-redaction-marker'); i++) {
      const listed = await client.callTool({ name: 'process.list', arguments: { match: 'list-redaction-marker' } });
      args = (listed.structuredContent as { processes: Array<{ pid: number; args: string[] }> }).processes.find((p) => p.pid === child.pid)?.args;
      if (!args?.includes('list-redaction-marker')) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(args?.slice(-4)).toEqual(['list-redaction-marker', '--password=***', 'API_TOKEN=***', 'https://bob:***@example.com/']);
    for (const secret of ['hunter2', 'tok-abc', 'pw-xyz']) {
      const probe = await client.callTool({ name: 'process.list', arguments: { match: secret } });
      expect((probe.structuredContent as { processes: unknown[] }).processes).toEqual([]);
      expect(JSON.stringify(probe)).not.toContain(secret);
    }
    const everything = await client.callTool({ name: 'process.list', arguments: {} });
    expect(JSON.stringify(everything)).not.toContain('hunter2');
  });
});

describe.skipIf(!asRoot)('process.ownOnly', () => {
  // Told apart by their arguments, so the listing is matched, not read whole (a busy machine's list is cut to the answer budget).
  let stranger: ChildProcess;
  beforeAll(async () => {
    stranger = spawn('/bin/sleep', ['299.1'], { uid: 65534, gid: 65534, stdio: 'ignore' });
    await new Promise((resolve) => stranger.once('spawn', resolve));
  });
  afterAll(() => stranger.kill('SIGKILL'));

  it("neither lists nor signals another user's process, and still does the owner's", async () => {
    const client = await inProcess({ process: { list: true, kill: true, ownOnly: true } });
    const mine = spawn('/bin/sleep', ['299.2'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => mine.once('spawn', resolve));
      const listed = await client.callTool({ name: 'process.list', arguments: { match: 'sleep 299.' } });
      const pids = (listed.structuredContent as { processes: Array<{ pid: number }> }).processes.map((p) => p.pid);
      expect(pids).toEqual([mine.pid]);
      expect(textOf(await kill(client, stranger.pid!, 'SIGKILL'))).toMatch(/belongs to another user \(process\.ownOnly is true\)/);
      expect(fs.existsSync(`/proc/${stranger.pid}`)).toBe(true);
      const exited = new Promise((resolve) => mine.once('exit', (_c, signal) => resolve(signal)));
      expect((await kill(client, mine.pid!, 'SIGTERM')).isError).toBeFalsy();
      expect(await exited).toBe('SIGTERM');
    } finally {
      mine.kill('SIGKILL');
    }
  });
});
