import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { adapterError } from '../../adapter/errors.js';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { MAX_ROWS, ProcessPanel, type ProcessAccess } from '../../main/app/process-panel.js';
import { configSchema } from '../../main/config/schema.js';

const config = (list: boolean, kill: boolean) => configSchema.parse({ process: { list, kill } });

describe('ProcessPanel', () => {
  it('refuses what the running config does not grant, before touching the adapter', async () => {
    const access: ProcessAccess = {
      listProcesses: () => Promise.reject(new Error('must not be called')),
      killProcess: () => Promise.reject(new Error('must not be called')),
    };
    const off = new ProcessPanel(access, () => config(false, false));
    expect(await off.list()).toMatchObject({ ok: false, error: expect.stringContaining('Process listing is off') });
    expect(await off.kill(123, 'SIGTERM')).toMatchObject({ ok: false, error: expect.stringContaining('Ending processes is off') });
    const none = new ProcessPanel(access, () => null);
    expect((await none.list()).ok).toBe(false);
  });

  it('filters, caps the rows and says whether ending is allowed', async () => {
    const many = Array.from({ length: MAX_ROWS + 50 }, (_, i) => ({
      pid: i + 1,
      ppid: 0,
      user: 'me',
      command: i % 2 ? 'node' : 'bash',
      args: [i % 2 ? 'node' : 'bash', `--n=${i}`],
    }));
    const panel = new ProcessPanel({ listProcesses: async () => many }, () => config(true, false));
    const all = await panel.list();
    expect(all).toMatchObject({ ok: true, truncated: true, canKill: false });
    if (all.ok) expect(all.processes).toHaveLength(MAX_ROWS);
    const nodes = await panel.list('NODE');
    if (!nodes.ok) throw new Error('listing by name failed');
    expect(nodes.processes.length).toBeGreaterThan(0);
    expect(nodes.processes.every((p) => p.command === 'node')).toBe(true);
    expect(nodes.truncated).toBe(false);
    const one = await panel.list(' --n=499 ');
    if (!one.ok) throw new Error('listing by argument failed');
    expect(one.processes.map((p) => p.pid)).toEqual([500]);
  });

  it('never ends the app itself, and reports adapter errors by code', async () => {
    const panel = new ProcessPanel(
      { killProcess: async () => Promise.reject(adapterError('NOT_FOUND', 'killProcess', 'no process 999999')) },
      () => config(true, true),
      4242,
    );
    expect(await panel.kill(4242, 'SIGKILL')).toMatchObject({ ok: false, error: expect.stringContaining('this app') });
    expect(await panel.kill(999999, 'SIGTERM')).toEqual({ ok: false, error: 'NOT_FOUND: no process 999999' });
    const errno = new ProcessPanel({ killProcess: async () => Promise.reject(Object.assign(new Error('/secret/path'), { code: 'EPERM' })) }, () =>
      config(true, true),
    );
    expect(await errno.kill(1, 'SIGTERM')).toEqual({ ok: false, error: 'Could not signal process 1 (EPERM)' });
  });

  it.skipIf(process.platform === 'win32')('lists and ends a real process through the real adapter', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'process-panel-marker'], { stdio: 'ignore' });
    try {
      const panel = new ProcessPanel(createLocalAdapter().processes, () => config(true, true));
      const listed = await panel.list('process-panel-marker');
      expect(listed).toMatchObject({ ok: true, canKill: true });
      if (listed.ok) expect(listed.processes.map((p) => p.pid)).toContain(child.pid);
      const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      expect(await panel.kill(child.pid!, 'SIGTERM')).toEqual({ ok: true });
      expect(await exited).toBe('SIGTERM');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
