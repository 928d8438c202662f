import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeAddonFile } from '../../../adapter/os/native-addon.js';
import { abstractSocketScope, nativeSpawner, startChild, type CommandChild, type StartOptions } from '../../../adapter/process/start-child.js';
import { BASE_ENV, isLinux, makeTempDir, writeScript } from './helpers.js';

/** The compiled module (tsc's out/), for scripts run in a process of their own. */
const BUILT_START_CHILD = new URL('../../../out/adapter/process/start-child.js', import.meta.url).href;

let dir: string;
beforeAll(() => {
  dir = makeTempDir('start');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  events: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function options(extra: Partial<StartOptions> = {}): StartOptions {
  return { argv0: undefined, cwd: undefined, env: { ...BASE_ENV }, stdin: 'ignore', platform: 'linux', ...extra };
}

/** Everything the child said, and the order of its events, once it closed. */
function outcome(child: CommandChild): Promise<Outcome> {
  const result: Outcome = { events: [], code: null, signal: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (result.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (result.stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.once('spawn', () => result.events.push('spawn'));
    child.once('exit', (code, signal) => {
      result.events.push('exit');
      Object.assign(result, { code, signal });
    });
    child.once('close', () => {
      result.events.push('close');
      resolve(result);
    });
  });
}

function run(file: string, args: string[], extra: Partial<StartOptions> = {}, native = nativeSpawner()): Promise<Outcome> {
  return outcome(startChild(file, args, options(extra), native));
}

async function startError(
  file: string,
  args: string[],
  extra: Partial<StartOptions>,
  native: ReturnType<typeof nativeSpawner>,
): Promise<NodeJS.ErrnoException> {
  try {
    const child = startChild(file, args, options(extra), native);
    // child_process reports a failed exec through 'error' instead of throwing.
    return await new Promise((resolve) => child.once('error', resolve));
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, session, ...]. */
function statFields(text: string): string[] {
  return text
    .slice(text.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
}

describe.runIf(isLinux)('the posix_spawn addon', () => {
  it.runIf(process.env.REQUIRE_NATIVE_SPAWN === '1')('is built and usable here (CI builds it)', () => {
    expect(nativeSpawner()).not.toBeNull();
  });

  it.runIf(abstractSocketScope())('scopes a child to its own abstract sockets when asked: one made outside refuses it, its own answers', async () => {
    const name = `chatgpt-mcp-scope-${process.pid}`;
    const outside = net.createServer((socket) => socket.end('outside\n'));
    await new Promise<void>((resolve) => outside.listen(`\0${name}`, resolve));
    const probe = writeScript(
      dir,
      'probe-abstract.mjs',
      `import net from 'node:net';
const connect = (path) => new Promise((resolve) => {
  const socket = net.connect({ path }, () => { socket.end(); resolve('accepted'); });
  socket.on('error', (error) => resolve(error.code));
});
const own = net.createServer((socket) => socket.end());
await new Promise((resolve) => own.listen('\\0${name}-own', resolve));
console.log(await connect('\\0${name}'), await connect('\\0${name}-own'));
own.close();`,
    );
    try {
      expect((await run(process.execPath, [probe], { scopeSockets: true })).stdout).toBe('EPERM accepted\n');
      expect((await run(process.execPath, [probe])).stdout).toBe('accepted accepted\n');
    } finally {
      outside.close();
    }
  });

  it('does not keep a descriptor per command: pidfds and pipes are closed after each one', async () => {
    const native = nativeSpawner();
    if (!native) return;
    await run('/bin/true', [], {}, native);
    const before = fs.readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 40; i++) await run('/bin/true', [], {}, native);
    // The last command's pipes close a moment after its exit was reported: wait for them, not 40 more.
    await expect.poll(() => fs.readdirSync('/proc/self/fd').length, { timeout: 2000 }).toBeLessThanOrEqual(before);
  });

  it('gives the command stdin, stdout and stderr only, even where the server holds an inheritable descriptor', async () => {
    const file = nativeAddonFile('posix-spawn');
    if (!nativeSpawner() || !file) return;
    // Node opens its own files close-on-exec; one inherited from the server's parent is not: fds 30 and 200 here.
    const script = `
      const addon = require(${JSON.stringify(file)});
      const list = (stream) => new Promise((resolve) => {
        let text = '';
        stream.on('data', (d) => (text += d)).on('close', () => resolve(text.split('\\n').filter(Boolean)));
      });
      const [, , viaAddon] = addon.spawn('/bin/sh', ['sh', '-c', 'ls /proc/$$/fd'], [], null, false, () => {});
      const viaNode = require('child_process').spawn('/bin/sh', ['-c', 'ls /proc/$$/fd'], { stdio: ['ignore', 'pipe', 'ignore'] });
      Promise.all([list(new (require('net').Socket)({ fd: viaAddon })), list(viaNode.stdout)]).then((lists) => console.log(JSON.stringify(lists)));`;
    const child = spawn('/bin/bash', ['-c', 'exec "$0" -e "$1" 30>/dev/null 200>/dev/null', process.execPath, script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    const [viaAddon, viaNode] = JSON.parse(text) as [string[], string[]];
    expect(viaNode).toEqual(expect.arrayContaining(['30', '200'])); // what fork and exec pass on
    expect(viaAddon).toEqual(['0', '1', '2']);
  });

  it('an exit listener that throws is an uncaught exception, once, and later children still report their exits', () => {
    if (!nativeSpawner()) return;
    const script = `
      const { startChild } = await import(${JSON.stringify(BUILT_START_CHILD)});
      const options = { argv0: undefined, cwd: undefined, env: {}, stdin: 'ignore', platform: 'linux' };
      let uncaught = 0;
      process.on('uncaughtException', () => uncaught++);
      const first = startChild('/bin/true', [], options);
      first.stdout.resume(); first.stderr.resume();
      first.once('exit', () => { throw new Error('from a listener'); });
      await new Promise((resolve) => first.once('close', resolve));
      const second = startChild('/bin/sh', ['-c', 'exit 4'], options);
      second.stdout.resume(); second.stderr.resume();
      const code = await new Promise((resolve) => second.once('exit', resolve));
      console.log(JSON.stringify({ uncaught, code }));`;
    const done = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(done.status, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ uncaught: 1, code: 4 });
  });

  it('a worker thread ended while its command runs leaves the process whole', () => {
    if (!nativeSpawner()) return;
    const worker = `(async () => {
      const { startChild } = await import(${JSON.stringify(BUILT_START_CHILD)});
      const child = startChild('/bin/sleep', ['30'], { argv0: undefined, cwd: undefined, env: {}, stdin: 'ignore', platform: 'linux' });
      child.stdout.resume(); child.stderr.resume();
      child.once('spawn', () => require('node:worker_threads').parentPort.postMessage(child.pid));
    })();`;
    const script = `
      const { Worker } = require('node:worker_threads');
      const worker = new Worker(${JSON.stringify(worker)}, { eval: true });
      worker.once('message', async (pid) => { await worker.terminate(); process.kill(-pid, 'SIGKILL'); console.log('ended'); });`;
    const done = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect({ status: done.status, stdout: done.stdout.trim() }, done.stderr).toEqual({ status: 0, stdout: 'ended' });
  });

  it('a program without a #! line is refused (ENOEXEC), not handed to /bin/sh as execvp would', async () => {
    const native = nativeSpawner();
    if (!native) return;
    const plain = writeScript(dir, 'plain-text', 'echo from a shell\n');
    expect(() => startChild(plain, [], options(), native)).toThrow(expect.objectContaining({ code: 'ENOEXEC', syscall: 'spawn' }));
  });

  it('a killed child reports its signal, and kill after the exit signals nothing (its pid may be reused)', async () => {
    const native = nativeSpawner();
    if (!native) return;
    const child = startChild('/bin/sleep', ['30'], options(), native);
    const done = outcome(child);
    await new Promise<void>((resolve) => child.once('spawn', resolve));
    expect(child.kill('SIGTERM')).toBe(true);
    expect(await done).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(child.kill('SIGKILL')).toBe(false);
  });
});

describe.runIf(isLinux).each([
  ['the posix_spawn addon', () => nativeSpawner()],
  ['child_process.spawn', () => null],
])('startChild through %s (real processes, Linux)', (_name, spawner) => {
  it('gives the exit code and both streams, with spawn, exit and close in that order', async () => {
    const result = await run('/bin/sh', ['-c', 'echo out; echo err >&2; exit 7'], {}, spawner());
    expect(result).toEqual({ events: ['spawn', 'exit', 'close'], code: 7, signal: null, stdout: 'out\n', stderr: 'err\n' });
  });

  it('names the signal a command died of, as Node names it', async () => {
    expect(await run('/bin/sh', ['-c', 'kill -USR1 $$'], {}, spawner())).toMatchObject({ code: null, signal: 'SIGUSR1' });
    expect(await run('/bin/sh', ['-c', 'kill -ABRT $$'], {}, spawner())).toMatchObject({ code: null, signal: 'SIGABRT' });
  });

  it('passes argv verbatim, argv[0] as asked, and exactly the given environment', async () => {
    const args = ['$HOME', '*', 'a b', '', '"q"'];
    const script = 'console.log(JSON.stringify([process.argv0, process.argv.slice(1), process.env]))';
    const named = await run(process.execPath, ['-e', script, ...args], { argv0: 'other-name', env: { ONLY: 'this', B: 'two words' } }, spawner());
    expect(JSON.parse(named.stdout)).toEqual(['other-name', args, { ONLY: 'this', B: 'two words' }]);
    const plain = await run(process.execPath, ['-e', 'console.log(process.argv0)'], {}, spawner());
    expect(plain.stdout).toBe(`${process.execPath}\n`);
  });

  it('hands on the descriptors asked for as 3, 4, ... in order (and the addon no others)', async () => {
    const O_PATH = 0o10000000;
    const places = ['/etc', '/bin/sh', dir];
    // Opened high and low, so that moving one down to its place could overwrite another if done naively.
    const filler = Array.from({ length: 8 }, () => fs.openSync('/dev/null', 'r'));
    const fds = places.map((place) => fs.openSync(place, O_PATH));
    try {
      const { stdout } = await run(
        '/bin/sh',
        ['-c', 'ls /proc/self/fd | sort -n; readlink /proc/self/fd/3 /proc/self/fd/4 /proc/self/fd/5'],
        { handOn: [fds[2]!, fds[0]!, fds[1]!] },
        spawner(),
      );
      const lines = stdout.split('\n').filter(Boolean);
      // ls's own directory descriptor is the one past them. (libuv closes only what is close-on-exec: a descriptor the test runner left inheritable passes.)
      if (spawner()) expect(lines.slice(0, -3)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
      else expect(lines.slice(0, 7)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
      expect(lines.slice(-3)).toEqual([dir, '/etc', fs.realpathSync('/bin/sh')].map((place) => fs.realpathSync(place)));
    } finally {
      for (const fd of [...filler, ...fds]) fs.closeSync(fd);
    }
  });

  it('runs in the working directory given', async () => {
    expect((await run('/bin/pwd', [], { cwd: dir }, spawner())).stdout).toBe(`${fs.realpathSync(dir)}\n`);
  });

  it('the command leads its own session and process group', async () => {
    const child = startChild('/bin/cat', ['/proc/self/stat'], options(), spawner());
    const result = await outcome(child);
    const [, ppid, pgrp, session] = statFields(result.stdout);
    expect({ ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) }).toEqual({ ppid: process.pid, pgrp: child.pid, session: child.pid });
  });

  it('no signal stays ignored or blocked, though the server ignores SIGPIPE', async () => {
    const status = (await run('/bin/cat', ['/proc/self/status'], {}, spawner())).stdout;
    expect(status).toMatch(/^SigIgn:\s+0+$/m);
    expect(status).toMatch(/^SigBlk:\s+0+$/m);
  });

  it('stdin is /dev/null, stdout and stderr are pipes, and what the server opens stays with it', async () => {
    const held = fs.openSync(path.join(dir, 'held'), 'w');
    try {
      const listed = (await run('/bin/sh', ['-c', 'for fd in 0 1 2; do readlink /proc/$$/fd/$fd; done; ls -l /proc/$$/fd'], {}, spawner())).stdout;
      // The addon gives pipes, as a shell's `|` would; child_process gives socket pairs.
      const stream = expect.stringMatching(/^(pipe|socket):/);
      expect(listed.split('\n').slice(0, 3)).toEqual(['/dev/null', stream, stream]);
      expect(listed).not.toContain(path.join(dir, 'held'));
    } finally {
      fs.closeSync(held);
    }
  });

  it('with stdin as a pipe, what is written reaches the command and closing it ends the input', async () => {
    const child = startChild('/bin/cat', [], options({ stdin: 'pipe' }), spawner());
    const done = outcome(child);
    child.stdin?.end('typed\n');
    expect(await done).toMatchObject({ code: 0, stdout: 'typed\n' });
  });

  it('runs many at once, each with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => run('/bin/sh', ['-c', `echo ${i}; exit ${i % 5}`], {}, spawner())));
    expect(results.map((r) => [r.stdout, r.code])).toEqual(Array.from({ length: 24 }, (_, i) => [`${i}\n`, i % 5]));
  });

  it('says why a program cannot start, with the OS error code', async () => {
    const noExec = writeScript(dir, 'no-exec', '#!/bin/sh\necho hi\n', 0o644);
    const cases: [string, Partial<StartOptions>, string][] = [
      [path.join(dir, 'missing'), {}, 'ENOENT'],
      [noExec, {}, 'EACCES'],
      ['/bin/true', { cwd: path.join(dir, 'no-such-dir') }, 'ENOENT'],
    ];
    for (const [file, extra, code] of cases) expect((await startError(file, [], extra, spawner())).code, file).toBe(code);
    expect((await startError('/bin/echo', ['a\0b'], {}, spawner())).code).toBe('ERR_INVALID_ARG_VALUE');
    expect((await startError('/bin/echo', [], { env: { A: 'x\0y' } }, spawner())).code).toBe('ERR_INVALID_ARG_VALUE');
  });
});

describe.runIf(isLinux)('startChild for Windows (its options, run here)', () => {
  it('does not detach the child: libuv then keeps it in the job object the system ends with the server', async () => {
    const child = startChild('/bin/cat', ['/proc/self/stat'], options({ platform: 'win32' }), null);
    const [, , pgrp, session] = statFields((await outcome(child)).stdout);
    const [, , ourGroup, ourSession] = statFields(fs.readFileSync('/proc/self/stat', 'utf8'));
    expect({ pgrp, session }).toEqual({ pgrp: ourGroup, session: ourSession });
  });
});
