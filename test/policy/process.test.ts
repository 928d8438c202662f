/**
 * The process rules, against real processes through the local port: this test process plays
 * the server (its own thread ids, its parent), a child Node process with a worker thread plays
 * an ordinary target, and a process started as another user tests ownOnly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyPort, ProcessIdentity } from '../../adapter/contract/policy-port.js';
import type { ProcessInfo } from '../../adapter/contract/processes.js';
import { ProcessPolicy } from '../../main/policy/process.js';
import { localAdapter, localPort } from '../helpers/adapter.js';
import { makeConfig } from '../helpers/servers.js';
import { otherThreadIds, someKernelThread, startThreadedChild, type ThreadedChild } from '../helpers/threads.js';

const linux = process.platform === 'linux';
const asRoot = linux && process.geteuid?.() === 0;
const policy = (
  process: { list?: boolean; kill?: boolean; ownOnly?: boolean } = { list: true, kill: true },
  port: Pick<PolicyPort, 'processIdentity' | 'ownProcess'> = localPort(),
) => new ProcessPolicy(makeConfig({ process }), port);

describe.skipIf(!linux)('signalTarget on real processes', () => {
  let threaded: ThreadedChild;
  beforeAll(async () => {
    threaded = await startThreadedChild('process-policy-marker');
  });
  afterAll(() => threaded.stop());

  it('refuses every thread id of the server (this process), not only its pid', async () => {
    const tids = [process.pid, ...otherThreadIds(process.pid)];
    expect(tids.length).toBeGreaterThan(1);
    for (const tid of tids) {
      await expect(policy().signalTarget(tid)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/is this MCP server/) });
    }
  });

  it('refuses the parent that started the server, and the chain above it', async () => {
    await expect(policy().signalTarget(process.ppid)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/started this MCP server/),
    });
  });

  it('refuses pid 1 and kernel threads, saying what may be signalled', async () => {
    await expect(policy().signalTarget(1)).rejects.toMatchObject({
      message: expect.stringMatching(/init process.*process\.kill may signal processes this user may signal, except this server/),
    });
    await expect(policy().signalTarget(2)).rejects.toMatchObject({ message: expect.stringMatching(/kernel thread/) });
    const kthread = someKernelThread();
    if (kthread !== null) await expect(policy().signalTarget(kthread)).rejects.toMatchObject({ message: expect.stringMatching(/kernel thread/) });
  });

  it("resolves another process's thread id to that process", async () => {
    expect(await policy().signalTarget(threaded.pid)).toEqual({ pid: threaded.pid, thread: false });
    for (const tid of threaded.threads) expect(await policy().signalTarget(tid)).toEqual({ pid: threaded.pid, thread: true });
  });

  it('says NOT_FOUND for an id that names nothing, and refuses what is not granted', async () => {
    await expect(policy().signalTarget(2 ** 22 + 4321)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(policy().signalTarget(0)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(policy({ list: true, kill: false }).signalTarget(threaded.pid)).rejects.toMatchObject({ code: 'CAPABILITY_DISABLED' });
  });
});

describe.skipIf(!asRoot)('ownOnly with a process of another user', () => {
  let stranger: ChildProcess;
  beforeAll(async () => {
    stranger = spawn('/bin/sleep', ['300'], { uid: 65534, gid: 65534, stdio: 'ignore' });
    await new Promise((resolve) => stranger.once('spawn', resolve));
  });
  afterAll(() => stranger.kill('SIGKILL'));

  it("refuses to signal another user's process and hides it from listings", async () => {
    const own = policy({ list: true, kill: true, ownOnly: true });
    await expect(own.signalTarget(stranger.pid!)).rejects.toMatchObject({ message: expect.stringMatching(/belongs to another user \(process\.ownOnly/) });
    const all = await localAdapter().processes.listProcesses();
    expect(all.map((p) => p.pid)).toContain(stranger.pid);
    const visible = own.visible(all).map((p) => p.pid);
    expect(visible).not.toContain(stranger.pid);
    expect(visible).toContain(process.pid);
    // Without ownOnly the same process is listed and may be signalled.
    expect(
      policy()
        .visible(all)
        .map((p) => p.pid),
    ).toContain(stranger.pid);
    expect(await policy().signalTarget(stranger.pid!)).toEqual({ pid: stranger.pid, thread: false });
  });
});

describe('rules on a stand-in port', () => {
  const identity = (over: Partial<ProcessIdentity> = {}): ProcessIdentity => ({ pid: 700, ppid: 600, kernel: false, uid: 1000, user: null, ...over });
  const port = (known: Record<number, ProcessIdentity>, own = { pid: 100, ppid: 50, uid: 1000 as number | null, user: 'me' as string | null }) => {
    const asked: number[] = [];
    return {
      asked,
      port: {
        processIdentity: async (id: number) => {
          asked.push(id);
          return known[id] ?? null;
        },
        ownProcess: () => own,
      },
    };
  };

  it('resolves the id before any rule, so a thread id of the server is the server', async () => {
    const { port: p, asked } = port({ 123: identity({ pid: 100, ppid: 50 }) });
    await expect(policy(undefined, p).signalTarget(123)).rejects.toMatchObject({
      message: expect.stringMatching(/pid 123 \(a thread of process 100\) is this MCP server/),
    });
    expect(asked[0]).toBe(123);
  });

  it('walks the parent chain once, up to init', async () => {
    const known = { 700: identity(), 50: identity({ pid: 50, ppid: 40 }), 40: identity({ pid: 40, ppid: 1 }) };
    const { port: p, asked } = port(known);
    const rules = policy(undefined, p);
    await expect(rules.signalTarget(40)).rejects.toMatchObject({ message: expect.stringMatching(/started this MCP server/) });
    await expect(rules.signalTarget(700)).resolves.toEqual({ pid: 700, thread: false });
    expect(asked.filter((id) => id === 50)).toHaveLength(1);
  });

  it('with ownOnly, an owner the OS does not report counts as another user (fail closed)', async () => {
    const { port: p } = port({ 700: identity({ uid: null, user: null }) });
    await expect(policy({ kill: true, ownOnly: true }, p).signalTarget(700)).rejects.toMatchObject({ message: expect.stringMatching(/another user/) });
    const { port: byName } = port({ 700: identity({ uid: null, user: 'me' }) }, { pid: 100, ppid: 50, uid: null, user: 'me' });
    await expect(policy({ kill: true, ownOnly: true }, byName).signalTarget(700)).resolves.toEqual({ pid: 700, thread: false });
  });
});

describe('visible', () => {
  const listing: ProcessInfo[] = [
    { pid: 10, ppid: 1, user: 'me', uid: 1000, command: 'mysql', args: ['mysql', '-uroot', '-phunter2'] },
    { pid: 11, ppid: 1, user: 'bob', uid: 1001, command: 'node', args: ['node', 'app.js', '--token=ghp_secret'] },
    { pid: 12, ppid: 1, user: 'me', uid: 1000, command: 'sleep', args: ['sleep', '9'] },
  ];
  const port = { processIdentity: async () => null, ownProcess: () => ({ pid: 1, ppid: 0, uid: 1000, user: 'me' }) };

  it('redacts secrets and matches on the redacted text only', () => {
    const rules = policy({ list: true }, port);
    expect(rules.visible(listing).map((p) => p.args)).toEqual([
      ['mysql', '-uroot', '-p***'],
      ['node', 'app.js', '--token=***'],
      ['sleep', '9'],
    ]);
    // A match on the hidden value finds nothing, so it cannot be guessed one character at a time.
    expect(rules.visible(listing, 'hunter')).toEqual([]);
    expect(rules.visible(listing, 'ghp_')).toEqual([]);
    expect(rules.visible(listing, ' SLEEP ').map((p) => p.pid)).toEqual([12]);
    expect(rules.visible(listing)[0]).not.toHaveProperty('uid');
  });

  it('lists only the owner with ownOnly, and nothing when listing is off', () => {
    expect(
      policy({ list: true, ownOnly: true }, port)
        .visible(listing)
        .map((p) => p.pid),
    ).toEqual([10, 12]);
    expect(() => policy({ list: false }, port).visible(listing)).toThrow(/process\.list is false/);
  });
});
