/**
 * The watcher that ends a child with the server where the kernel cannot (macOS; the same POSIX
 * sh, pipes, sessions and process groups here): a server stand-in started as its own Node
 * process starts a command the way macOS does (child_process, a session of its own, a lifeline)
 * and is killed with SIGKILL; the command and the process it started must go too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFELINE_NAME } from '../../../adapter/process/lifeline.js';
import { startChild } from '../../../adapter/process/start-child.js';
import { processesWith } from '../../helpers/proc.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

// The built module (npm run build), as the CLI runs it.
const START_CHILD = path.resolve('out/adapter/process/start-child.js');
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
const watchers = (pid: number) => processesWith(`${LIFELINE_NAME} ${pid}`);

describe.runIf(process.platform === 'linux')('the lifeline watcher', () => {
  it('ends the command and what it started when the server is killed with SIGKILL', async () => {
    const server = path.join(dir, 'server.mjs');
    fs.writeFileSync(
      server,
      `import { startChild } from ${JSON.stringify(START_CHILD)};
const child = startChild('/bin/sh', ['-c', 'sleep 300 & echo $!; wait'], { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore', platform: 'darwin' }, null);
child.stdout.once('data', (d) => console.log(JSON.stringify({ child: child.pid, grandchild: Number(String(d).trim()) })));
setInterval(() => {}, 1000);
`,
    );
    const stand = spawn(process.execPath, [server], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => stand.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const { child, grandchild } = JSON.parse(line) as { child: number; grandchild: number };
    expect(alive(child) && alive(grandchild)).toBe(true);
    expect(watchers(child)).toHaveLength(1);
    stand.kill('SIGKILL');
    await expect.poll(() => [alive(child), alive(grandchild)], { timeout: 5_000 }).toEqual([false, false]);
    await expect.poll(() => watchers(child), { timeout: 5_000 }).toEqual([]);
  });

  it('goes when the command ends first, and is not kept for Windows or a command that never started', async () => {
    const options = { argv0: undefined, cwd: undefined, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore' as const, platform: 'darwin' as const };
    const child = startChild('/bin/sh', ['-c', 'sleep 0.2'], options, null);
    expect(watchers(child.pid!)).toHaveLength(1);
    await new Promise((resolve) => child.once('exit', resolve));
    await expect.poll(() => watchers(child.pid!), { timeout: 5_000 }).toEqual([]);
    const windows = startChild('/bin/sh', ['-c', 'sleep 0.2'], { ...options, platform: 'win32' }, null);
    expect(watchers(windows.pid!)).toEqual([]);
    await new Promise((resolve) => windows.once('exit', resolve));
    const missing = startChild(path.join(dir, 'no-such-program'), [], options, null);
    await new Promise((resolve) => missing.once('error', resolve));
    expect(missing.pid).toBeUndefined();
  });
});
