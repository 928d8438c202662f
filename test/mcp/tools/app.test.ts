import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isAlive } from '../../../adapter/apps/close-app.js';
import { startTestServer, type TestServer } from '../../helpers/tool-server.js';

const linux = process.platform === 'linux';
let dir: string;
let sleeper: string;
let recorder: string;
let stubborn: string;
let argsFile: string;
let server: TestServer;
const launched: number[] = [];
const others: ChildProcess[] = [];

function waitGone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = async () => {
      if (!(await isAlive(pid))) return resolve(true);
      if (Date.now() > deadline) return resolve(false);
      setTimeout(tick, 25);
    };
    void tick();
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-tools-'));
  sleeper = path.join(dir, 'sleeper');
  fs.copyFileSync('/bin/sleep', sleeper);
  fs.chmodSync(sleeper, 0o755);
  argsFile = path.join(dir, 'args.txt');
  recorder = path.join(dir, 'recorder');
  fs.writeFileSync(recorder, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${argsFile}'\n`, { mode: 0o755 });
  // Ignores SIGTERM: only force closes it.
  stubborn = path.join(dir, 'stubborn');
  // Touches a ready file once its trap is installed, so the test waits for that, not for a guess.
  fs.writeFileSync(stubborn, `#!/bin/sh\ntrap '' TERM\ntouch "$0.ready"\nwhile :; do sleep 0.05; done\n`, { mode: 0o755 });
  server = await startTestServer({
    desktop: {
      hostDisplayAccess: true,
      appControl: true,
      apps: {
        sleeper: { path: sleeper, args: ['30'] },
        recorder: { path: recorder, args: ['fixed arg'], allowExtraArgs: true },
        stubborn: { path: stubborn },
        missing: { path: path.join(dir, 'does-not-exist') },
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
  for (const pid of launched) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const child of others) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!linux)('app.launch and app.close with configured apps (real processes)', () => {
  test('both tools are listed when hostDisplayAccess and appControl are on', async () => {
    const tools = (await server.client.listTools()).tools;
    const launch = tools.find((t) => t.name === 'app.launch');
    const close = tools.find((t) => t.name === 'app.close');
    expect(launch?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(close?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
  });

  test('launch starts the configured executable with its fixed args; close ends exactly it', async () => {
    const result = await server.call('app.launch', { name: 'sleeper' });
    expect(result.isError, result.text).toBe(false);
    const pid = result.structured!.pid as number;
    launched.push(pid);
    expect(result.structured).toEqual({ name: 'sleeper', pid });
    expect(fs.readlinkSync(`/proc/${pid}/exe`)).toBe(fs.realpathSync(sleeper));
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2)).toEqual([sleeper, '30']);

    const closed = await server.call('app.close', { name: 'sleeper' });
    expect(closed.isError, closed.text).toBe(false);
    expect(closed.structured).toEqual({ name: 'sleeper', closed: [pid], stillRunning: [] });
    expect(await waitGone(pid)).toBe(true);
  });

  test('close refuses a pid that is not the app, and leaves it running', async () => {
    const started = await server.call('app.launch', { name: 'sleeper' });
    const appPid = started.structured!.pid as number;
    launched.push(appPid);
    // Same program name, different executable: must not be touched.
    const unrelated = spawn('/bin/sleep', ['30'], { stdio: 'ignore' });
    others.push(unrelated);
    await new Promise((resolve) => unrelated.once('spawn', resolve));

    const refused = await server.call('app.close', { name: 'sleeper', pid: unrelated.pid });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(new RegExp(`^INVALID_INPUT: pid ${unrelated.pid} is not a process of ${sleeper}.*running pids are ${appPid}`));
    expect(await isAlive(unrelated.pid!)).toBe(true);

    const self = await server.call('app.close', { name: 'sleeper', pid: process.pid });
    expect(self.text).toMatch(/^INVALID_INPUT: /);

    const gone = await server.call('app.close', { name: 'sleeper', pid: 4_194_000 });
    expect(gone.text).toMatch(/^NOT_FOUND: no process with pid 4194000/);

    const byPid = await server.call('app.close', { name: 'sleeper', pid: appPid });
    expect(byPid.structured).toMatchObject({ closed: [appPid] });
    expect(await isAlive(unrelated.pid!)).toBe(true);
  });

  test('closing an app with nothing running is an empty result', async () => {
    const result = await server.call('app.close', { name: 'sleeper' });
    expect(result.structured).toEqual({ name: 'sleeper', closed: [], stillRunning: [] });
    expect(result.text).toContain('no running process');
  });

  test('extra args arrive as separate, unparsed arguments after the fixed ones', async () => {
    const tricky = ['a b', '$(id)', '; rm -rf /', '`whoami`', "it's", '--flag=1'];
    const result = await server.call('app.launch', { name: 'recorder', args: tricky });
    expect(result.isError, result.text).toBe(false);
    launched.push(result.structured!.pid as number);
    await expect.poll(() => fs.existsSync(argsFile) && fs.readFileSync(argsFile, 'utf8')).toBe(['fixed arg', ...tricky].join('\n') + '\n');
  });

  test('extra args are refused for an app that does not allow them', async () => {
    const result = await server.call('app.launch', { name: 'sleeper', args: ['1'] });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('INVALID_INPUT: app "sleeper" does not accept extra args (desktop.apps.sleeper.allowExtraArgs is false); call it without args');
  });

  test('an unknown name lists the configured apps', async () => {
    for (const name of ['firefox', '__proto__', 'constructor']) {
      const result = await server.call('app.launch', { name });
      expect(result.text).toBe(`NOT_FOUND: no app named "${name}" is configured; configured apps (desktop.apps): sleeper, recorder, stubborn, missing`);
    }
  });

  test('a configured executable that does not exist is NOT_FOUND', async () => {
    const result = await server.call('app.launch', { name: 'missing' });
    expect(result.text).toMatch(/^NOT_FOUND: the configured executable .*does-not-exist does not exist/);
  });

  test('a script app ignoring SIGTERM survives a polite close and is killed with force', async () => {
    const started = await server.call('app.launch', { name: 'stubborn' });
    const pid = started.structured!.pid as number;
    launched.push(pid);
    for (let i = 0; i < 200 && !fs.existsSync(`${stubborn}.ready`); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(fs.existsSync(`${stubborn}.ready`)).toBe(true);

    const polite = await server.call('app.close', { name: 'stubborn' });
    expect(polite.structured).toEqual({ name: 'stubborn', closed: [], stillRunning: [pid] });
    expect(await isAlive(pid)).toBe(true);

    const forced = await server.call('app.close', { name: 'stubborn', force: true });
    expect(forced.structured).toEqual({ name: 'stubborn', closed: [pid], stillRunning: [] });
    expect(await isAlive(pid)).toBe(false);
  }, 20_000);
});

describe('gating', () => {
  const apps = { sleeper: { path: '/bin/sleep', args: ['30'] } };

  test.each([
    ['master off', { hostDisplayAccess: false, appControl: true, apps }],
    ['appControl off', { hostDisplayAccess: true, appControl: false, apps }],
  ])('app tools are absent and never run with %s', async (_label, desktop) => {
    const off = await startTestServer({ desktop });
    try {
      const names = await off.toolNames();
      expect(names).not.toContain('app.launch');
      expect(names).not.toContain('app.close');
      // Not granted: answered as such (naming the setting), and nothing runs.
      const refused = await off.call('app.launch', { name: 'sleeper' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^CAPABILITY_DISABLED: app\.launch exists but is not granted .*desktop\.appControl/);
    } finally {
      await off.close();
    }
  });
});
