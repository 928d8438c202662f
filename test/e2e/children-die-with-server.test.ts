/**
 * Children never outlive the server: a server killed with SIGKILL (nothing of ours runs then)
 * takes its process handles and running commands with it, sandboxed or not. Checked by pid and
 * by argv (a unique marker argument no other process has). PR_SET_PDEATHSIG at start ends each
 * child; the server's lifeline watcher ends what a child started and a sandbox still setting up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp } from '../helpers/clients.js';
import { childEnv, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { alive } from '../helpers/proc.js';

const linux = process.platform === 'linux';

/** Live (not zombie) processes whose command line holds `marker`. */
function withMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = /\) (\S)/.exec(fs.readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1];
      if (argv.includes(marker) && state !== 'Z') pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function processState(pid: number): string {
  try {
    return /\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
}

describe.runIf(linux)('a SIGKILLed server leaves no child behind', () => {
  let home: string;
  beforeAll(() => {
    home = makeTempDir('die-with-server-');
  });
  afterAll(() => removeDir(home));

  it.each(['off', 'workspace'] as const)(
    'with shell.sandbox %s: process handles and running commands end with it',
    async (sandbox) => {
      if (sandbox === 'workspace' && !fs.existsSync('/usr/bin/bwrap')) return;
      const marker = `marker-${randomBytes(6).toString('hex')}`;
      const config = path.join(home, `config-${sandbox}.json`);
      fs.writeFileSync(
        config,
        JSON.stringify({ server: { auth: 'none' }, filesystem: { roots: [home] }, shell: { enabled: true, allowedCommands: ['node'], sandbox } }),
      );
      const server = await startCliHttp(['--config', config], childEnv(home));
      const client = await connectModernHttp(server.url);
      // A process handle whose command started a command of its own (PR_SET_PDEATHSIG alone misses that one).
      const parent = `require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)', '${marker}'], { stdio: 'ignore' }); setTimeout(() => {}, 600000)`;
      const started = await client.callTool({ name: 'process.start', arguments: { command: 'node', args: ['-e', parent, marker] } });
      expect(started.isError).toBeFalsy();
      // A command still running inside a call too (the call never answers: the server dies first).
      void client.callTool({ name: 'shell.exec', arguments: { command: 'node', args: ['-e', 'setTimeout(() => {}, 601000)', marker] } }).catch(() => undefined);
      // Three commands, each under a bwrap of its own in the sandbox (in the handle's namespace for the grandchild).
      await expect.poll(() => withMarker(marker).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(sandbox === 'off' ? 3 : 5);
      const pids = withMarker(marker);

      server.child.kill('SIGKILL');
      // Each of those pids is gone or a zombie (nobody here reaps them), and no process carries the marker.
      await expect.poll(() => withMarker(marker), { timeout: 10_000 }).toEqual([]);
      // A process still tearing down its namespace shows 'D' for a moment: it must end up gone or a zombie.
      for (const pid of pids) await expect.poll(() => processState(pid), { timeout: 10_000 }).toMatch(/^(gone|Z)$/);
      await client.close().catch(() => undefined);
    },
    40_000,
  );
});

// Windows (the workflow's windows runner): libuv's job ends the command itself; the server's own job (windows-job.ts) what it started.
describe.runIf(process.platform === 'win32')('a killed server on Windows leaves no grandchild behind', () => {
  it("a process handle's own child ends with the server", async () => {
    const home = makeTempDir('die-with-server-win-');
    try {
      const config = path.join(home, 'config.json');
      fs.writeFileSync(
        config,
        JSON.stringify({ server: { auth: 'none' }, filesystem: { roots: [home] }, shell: { enabled: true, allowedCommands: ['node'], sandbox: 'off' } }),
      );
      const server = await startCliHttp(['--config', config], childEnv(home));
      const client = await connectModernHttp(server.url);
      const pidFile = path.join(home, 'grandchild.pid');
      // The grandchild comes 8 s later: the watcher (started with the server) is ready by then and holds the command.
      const parent = `setTimeout(() => { const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore', detached: true }); c.unref(); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); }, 8000); setTimeout(() => {}, 600000)`;
      const started = await client.callTool({ name: 'process.start', arguments: { command: 'node', args: ['-e', parent] } });
      expect(started.isError).toBeFalsy();
      await expect.poll(() => fs.existsSync(pidFile), { timeout: 20_000 }).toBe(true);
      const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(alive(grandchild)).toBe(true);

      server.child.kill('SIGKILL');
      await expect.poll(() => alive(grandchild), { timeout: 10_000 }).toBe(false);
      await client.close().catch(() => undefined);
    } finally {
      removeDir(home);
    }
  }, 60_000);
});
