/**
 * The watcher that ends the server's children with it, even a server killed with SIGKILL: a
 * server stand-in, its own Node process, starts commands (through the spawn addon as on Linux,
 * or through child_process as on macOS) and is killed; the commands and what they started must
 * go too, with what a command left running after it ended; a group leaves the list once empty.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFELINE_NAME, lifelineGroups, lifelinePid } from '../../../adapter/process/lifeline.js';
import { startChild } from '../../../adapter/process/start-child.js';
import { processesWith } from '../../helpers/proc.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

// The built modules (npm run build), as the CLI runs them.
const START_CHILD = path.resolve('out/adapter/process/start-child.js');
const LIFELINE = path.resolve('out/adapter/process/lifeline.js');
let dir: string;
beforeAll(() => {
  dir = makeTempDir('lifeline-');
});
afterAll(() => removeDir(dir));

const alive = (pid: number) => {
  try {
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
};
const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

/** Runs `source` as a server stand-in; resolves with the first line it prints (JSON). */
async function standIn<T>(source: string): Promise<{ stand: ReturnType<typeof spawn>; printed: T }> {
  const file = path.join(dir, `server-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, `${source}\nsetInterval(() => {}, 1000);\n`);
  const stand = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => stand.stdout!.once('data', (d: Buffer) => resolve(d.toString())));
  return { stand, printed: JSON.parse(line) as T };
}

describe.runIf(process.platform === 'linux')('the lifeline watcher', () => {
  it.each([
    ['the spawn addon (Linux)', 'linux', 'undefined'],
    ['child_process (macOS)', 'darwin', 'null'],
  ])('ends the command and what it started when a server using %s is killed with SIGKILL', async (_name, platform, native) => {
    const { stand, printed } = await standIn<{ child: number; grandchild: number; watcher: number }>(
      `import { startChild } from ${JSON.stringify(START_CHILD)};
import { lifelinePid } from ${JSON.stringify(LIFELINE)};
const child = startChild('/bin/sh', ['-c', 'sleep 300 & echo $!; wait'], { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore', platform: '${platform}' }, ${native});
child.stdout.once('data', (d) => console.log(JSON.stringify({ child: child.pid, grandchild: Number(String(d).trim()), watcher: lifelinePid() })));`,
    );
    const { child, grandchild, watcher } = printed;
    expect([alive(child), alive(grandchild)]).toEqual([true, true]);
    expect(commandLine(watcher)).toContain(LIFELINE_NAME);
    stand.kill('SIGKILL');
    await expect.poll(() => [alive(child), alive(grandchild), alive(watcher)], { timeout: 5_000 }).toEqual([false, false, false]);
  });

  it.runIf(fs.existsSync('/usr/bin/bwrap'))('ends a sandbox that was still setting up when the server died', async () => {
    // The stand-in kills itself right after starting bwrap, while bwrap's inner process has not
    // yet asked the kernel to end it with its parent: only the watcher can end that one.
    const marker = `lifeline-${Math.random().toString(36).slice(2)}`;
    const { stand } = await standIn<Record<string, never>>(
      `import { startChild } from ${JSON.stringify(START_CHILD)};
import { namespaceArgs } from ${JSON.stringify(path.resolve('out/adapter/process/sandbox/bubblewrap.js'))};
console.log('{}');
const sandbox = [...namespaceArgs({ userNamespace: false, privateNetwork: true, privateIpc: true }), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
for (let i = 0; i < 5; i++) startChild('/usr/bin/bwrap', [...sandbox, '--', '/bin/sleep', '300', ${JSON.stringify(marker)}], { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore', platform: 'linux' });
process.kill(process.pid, 'SIGKILL');`,
    );
    await new Promise((resolve) => stand.once('exit', resolve));
    await expect.poll(() => processesWith(marker).filter(({ pid }) => alive(pid)), { timeout: 5_000 }).toEqual([]);
  });

  it('ends what a command left running in its group when the server dies after the command ended', async () => {
    const { stand, printed } = await standIn<{ leftover: number }>(
      `import { startChild } from ${JSON.stringify(START_CHILD)};
const child = startChild('/bin/sh', ['-c', 'sleep 300 >/dev/null 2>&1 & echo $!'], { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore', platform: 'linux' });
let leftover;
child.stdout.once('data', (d) => (leftover = Number(String(d).trim())));
child.once('close', () => console.log(JSON.stringify({ leftover })));`,
    );
    expect(alive(printed.leftover)).toBe(true);
    stand.kill('SIGKILL');
    await expect.poll(() => alive(printed.leftover), { timeout: 5_000 }).toBe(false);
  });

  it('takes a group off the list once it is empty: at once, or when what the command left has ended', async () => {
    const options = { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore' as const, platform: 'linux' as const };
    const ended = (child: { once(event: 'exit', listener: () => void): unknown }) => new Promise((resolve) => child.once('exit', () => resolve(true)));
    const plain = startChild('/bin/true', [], options);
    const leaving = startChild('/bin/sh', ['-c', 'sleep 1 >/dev/null 2>&1 &'], options);
    expect([lifelineGroups.has(plain.pid!), lifelineGroups.has(leaving.pid!)]).toEqual([true, true]);
    await Promise.all([ended(plain), ended(leaving)]);
    expect(lifelineGroups.has(plain.pid!)).toBe(false);
    expect(lifelineGroups.has(leaving.pid!)).toBe(true); // its sleep is still in the group
    await expect.poll(() => lifelineGroups.has(leaving.pid!), { timeout: 4_000, interval: 100 }).toBe(false);
  });

  it('is one watcher for every child, and none for a command that never started', async () => {
    const options = { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore' as const, platform: 'darwin' as const };
    const first = startChild('/bin/sh', ['-c', 'sleep 0.2'], options, null);
    const watcher = lifelinePid();
    expect(commandLine(watcher!)).toContain(LIFELINE_NAME);
    const second = startChild('/bin/sh', ['-c', 'sleep 0.2'], options, null);
    expect(lifelinePid()).toBe(watcher);
    await Promise.all([first, second].map((child) => new Promise((resolve) => child.once('exit', resolve))));
    expect(alive(watcher!)).toBe(true);
    const missing = startChild(path.join(dir, 'no-such-program'), [], options, null);
    await new Promise((resolve) => missing.once('error', resolve));
    expect(missing.pid).toBeUndefined();
  });
});
