import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { adapterError } from '../../adapter/contract/errors.js';
import { MAX_ROWS, ProcessPanel, type ProcessAccess } from '../../main/tray/process-panel.js';
import { ProcessPolicy } from '../../main/policy/process.js';
import { localAdapter, localPort } from '../helpers/adapter.js';
import { makeConfig } from '../helpers/servers.js';
import { otherThreadIds, someKernelThread, startThreadedChild } from '../helpers/threads.js';

const rules = (list: boolean, kill: boolean, ownOnly = false) => new ProcessPolicy(makeConfig({ process: { list, kill, ownOnly } }), localPort());
const untouchable: ProcessAccess = {
  listProcesses: () => Promise.reject(new Error('must not be called')),
  killProcess: () => Promise.reject(new Error('must not be called')),
};
const linux = process.platform === 'linux';

describe('ProcessPanel follows the grants', () => {
  it('refuses what the running server does not grant, before touching the adapter', async () => {
    const off = new ProcessPanel(untouchable, () => rules(false, false));
    expect(await off.list()).toMatchObject({ ok: false, error: expect.stringContaining('Process listing is off') });
    expect(await off.kill(123, 'SIGTERM')).toMatchObject({ ok: false, error: expect.stringContaining('Ending processes is off') });
  });

  it('refuses everything while the server is not running', async () => {
    const stopped = new ProcessPanel(untouchable, () => null);
    expect(await stopped.list()).toMatchObject({ ok: false, error: expect.stringContaining('not running') });
    expect(await stopped.kill(123, 'SIGTERM')).toMatchObject({ ok: false, error: expect.stringContaining('not running') });
  });

  it('a switch turned off in the saved file counts at once, and so does an unreadable file', async () => {
    const many = [{ pid: 5, ppid: 1, user: 'me', command: 'node', args: ['node'] }];
    const savedKillOff = new ProcessPanel(
      { ...untouchable, listProcesses: async () => many },
      () => rules(true, true),
      () => ({ list: true, kill: false }),
    );
    expect(await savedKillOff.list()).toMatchObject({ ok: true, canKill: false });
    expect(await savedKillOff.kill(5, 'SIGTERM')).toMatchObject({ ok: false, error: expect.stringContaining('Ending processes is off') });
    const unreadable = new ProcessPanel(
      untouchable,
      () => rules(true, true),
      () => null,
    );
    expect(await unreadable.list()).toMatchObject({ ok: false, error: expect.stringContaining('Process listing is off') });
    expect(await unreadable.kill(5, 'SIGTERM')).toMatchObject({ ok: false });
  });
});

describe('ProcessPanel lists through the policy', () => {
  it('filters, caps the rows, redacts secrets and says whether ending is allowed', async () => {
    const many = Array.from({ length: MAX_ROWS + 50 }, (_, i) => ({
      pid: i + 1,
      ppid: 0,
      user: 'me',
      command: i % 2 ? 'node' : 'bash',
      args: [i % 2 ? 'node' : 'bash', `--n=${i}`, `--token=secret-${i}`],
    }));
    const panel = new ProcessPanel({ listProcesses: async () => many }, () => rules(true, false));
    const all = await panel.list();
    expect(all).toMatchObject({ ok: true, truncated: true, canKill: false });
    if (!all.ok) throw new Error('listing failed');
    expect(all.processes).toHaveLength(MAX_ROWS);
    expect(JSON.stringify(all.processes)).not.toContain('secret-');
    const nodes = await panel.list('NODE');
    if (!nodes.ok) throw new Error('listing by name failed');
    expect(nodes.processes.every((p) => p.command === 'node')).toBe(true);
    expect(nodes.truncated).toBe(false);
    const one = await panel.list(' --n=499 ');
    if (!one.ok) throw new Error('listing by argument failed');
    expect(one.processes.map((p) => p.pid)).toEqual([500]);
    expect(await panel.list('secret-499')).toMatchObject({ ok: true, processes: [] });
  });
});

describe.skipIf(!linux)('ProcessPanel marks each row with what process.kill would do', () => {
  it('offers to end a real child, never this app, its parent, pid 1 or a kernel thread, and says why', async () => {
    const adapter = localAdapter();
    const panel = new ProcessPanel(adapter.processes, () => new ProcessPolicy(makeConfig({ process: { list: true, kill: true } }), adapter.inspect));
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'process-panel-rows-marker'], { stdio: 'ignore' });
    try {
      const listed = await panel.list();
      if (!listed.ok) throw new Error(listed.error);
      expect(listed.killable).toMatch(/^processes this user may signal, except this server, the programs that started it, pid 1 and kernel threads$/);
      const row = (pid: number) => listed.processes.find((p) => p.pid === pid);
      expect(row(child.pid!)).toMatchObject({ endable: true, protectedReason: null });
      expect(row(process.pid)).toMatchObject({ endable: false, protectedReason: 'is this MCP server; stop it from its own window or terminal' });
      expect(row(process.ppid)).toMatchObject({ endable: false, protectedReason: expect.stringMatching(/^started this MCP server/) });
      expect(row(1)).toMatchObject({ endable: false, protectedReason: 'is the init process and is never signalled' });
      const kernel = someKernelThread();
      if (kernel && row(kernel)) expect(row(kernel)).toMatchObject({ endable: false, protectedReason: 'is a kernel thread' });
      // Every row the panel offers is one a kill would accept: the same verdicts, asked again.
      for (const p of listed.processes.filter((p) => !p.endable)) expect((await panel.kill(p.pid, 'SIGTERM')).ok, `pid ${p.pid}`).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('with ending off nothing is endable and no rows are checked', async () => {
    let checked = 0;
    const policy = rules(true, false);
    const original = policy.signalTarget.bind(policy);
    policy.signalTarget = (pid) => (checked++, original(pid));
    const panel = new ProcessPanel({ listProcesses: async () => [{ pid: 4242, ppid: 1, user: 'me', command: 'node', args: ['node'] }] }, () => policy);
    expect(await panel.list()).toMatchObject({ ok: true, canKill: false, killable: null, processes: [{ pid: 4242, endable: false, protectedReason: null }] });
    expect(checked).toBe(0);
  });

  it('a process that exits before it is checked is not offered', async () => {
    const panel = new ProcessPanel({ listProcesses: async () => [{ pid: 2 ** 31 - 2, ppid: 1, user: 'me', command: 'gone', args: ['gone'] }] }, () =>
      rules(true, true),
    );
    expect(await panel.list()).toMatchObject({ ok: true, canKill: true, processes: [{ endable: false, protectedReason: 'has exited' }] });
  });
});

describe.skipIf(!linux)('ProcessPanel ends processes through the same rules as process.kill', () => {
  it('never ends this app (any of its threads), its parent, pid 1 or a kernel thread', async () => {
    const panel = new ProcessPanel(untouchable, () => rules(true, true));
    for (const pid of [process.pid, ...otherThreadIds(process.pid), process.ppid, 1, 2, someKernelThread() ?? 1]) {
      const result = await panel.kill(pid, 'SIGKILL');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^INVALID_INPUT: pid \d+.* (is this MCP server|started this MCP server|init process|kernel thread)/);
    }
  });

  it('reports adapter errors by code, and reduces anything else to its errno', async () => {
    const threaded = await startThreadedChild('panel-errors-marker');
    try {
      const failing = new ProcessPanel({ killProcess: () => Promise.reject(adapterError('NOT_FOUND', 'killProcess', 'no process 4242')) }, () =>
        rules(true, true),
      );
      expect(await failing.kill(threaded.pid, 'SIGTERM')).toEqual({ ok: false, error: 'NOT_FOUND: no process 4242' });
      const errno = new ProcessPanel({ killProcess: () => Promise.reject(Object.assign(new Error('/secret/path'), { code: 'EPERM' })) }, () =>
        rules(true, true),
      );
      expect(await errno.kill(threaded.pid, 'SIGTERM')).toEqual({ ok: false, error: `Could not signal process ${threaded.pid} (EPERM)` });
    } finally {
      threaded.stop();
    }
  });

  it('lists and ends a real process through the real adapter, also by one of its thread ids', async () => {
    const adapter = localAdapter();
    const panel = new ProcessPanel(adapter.processes, () => new ProcessPolicy(makeConfig({ process: { list: true, kill: true } }), adapter.inspect));
    const plain = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'process-panel-marker', '--password=hunter2'], { stdio: 'ignore' });
    const threaded = await startThreadedChild('process-panel-threaded');
    try {
      const listed = await panel.list('process-panel-marker');
      expect(listed).toMatchObject({ ok: true, canKill: true });
      if (listed.ok) {
        expect(listed.processes.map((p) => p.pid)).toContain(plain.pid);
        expect(listed.processes.find((p) => p.pid === plain.pid)?.args).toContain('--password=***');
      }
      const exited = new Promise((resolve) => plain.once('exit', (_code, signal) => resolve(signal)));
      expect(await panel.kill(plain.pid!, 'SIGTERM')).toEqual({ ok: true });
      expect(await exited).toBe('SIGTERM');
      expect(await panel.kill(threaded.threads[0]!, 'SIGKILL')).toEqual({ ok: true });
      expect(await threaded.exited).toBe('SIGKILL');
    } finally {
      plain.kill('SIGKILL');
      threaded.stop();
    }
  });
});
