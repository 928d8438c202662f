import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';
import type { ExecRequest } from '../../../adapter/contract/processes.js';
import { ProcessRegistry } from '../../../adapter/process/process-registry.js';
import { runCommand } from '../../../adapter/process/run-command.js';
import { BASE_ENV, eventually, isGone, isLinux, makeTempDir, readPid, writeScript } from './helpers.js';

let dir: string;
let registry: ProcessRegistry;
beforeEach(() => {
  dir = makeTempDir('registry');
  registry = new ProcessRegistry(process.platform);
});
afterEach(async () => {
  await registry.closeAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

const limits = { maxHandles: 3, ringBytes: 1024, idleMs: 60_000 };
const node = (script: string, extra: Partial<ExecRequest> = {}): ExecRequest & { handles: typeof limits } => ({
  file: process.execPath,
  args: ['-e', script],
  env: BASE_ENV,
  cwd: dir,
  timeoutMs: 60_000,
  maxOutputBytes: 1024,
  handles: limits,
  ...extra,
});

async function code(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return isComputerAdapterError(error) ? error.code : String(error);
  }
  return 'ok';
}

describe('ProcessRegistry', () => {
  it('drives a dev-server style child: start, output, stdin, stop', async () => {
    const dev = 'console.log("ready"); process.stdin.on("data", d => console.log("got " + d.toString().trim()))';
    const started = await registry.start(node(dev));
    expect(started).toMatchObject({ state: 'running', stdinOpen: true });
    expect(started.processHandle).toMatch(/^proc_[A-Za-z0-9_-]{24}$/);
    const first = await registry.read(started.processHandle, { stdoutOffset: 0, stderrOffset: 0, waitMs: 5000, maxBytes: 1024 });
    expect(first.stdout.text).toBe('ready\n');
    await registry.write(started.processHandle, 'ping\n', false);
    const second = await registry.read(started.processHandle, { stdoutOffset: first.stdout.nextOffset, stderrOffset: 0, waitMs: 5000, maxBytes: 1024 });
    expect(second.stdout).toMatchObject({ text: 'got ping\n', offset: 6 });
    const stopped = await registry.stop(started.processHandle, { force: false });
    expect(stopped).toMatchObject({ state: 'exited', signal: 'SIGTERM' });
    expect(await code(registry.write(started.processHandle, 'late\n', false))).toBe('PRECONDITION_FAILED');
  });

  it('waits for new output up to waitMs, and returns at once when the process exits', async () => {
    const started = await registry.start(node('setTimeout(() => console.log("later"), 300)'));
    const t0 = Date.now();
    const read = await registry.read(started.processHandle, { stdoutOffset: 0, stderrOffset: 0, waitMs: 10_000, maxBytes: 1024 });
    expect(read.stdout.text).toBe('later\n');
    expect(Date.now() - t0).toBeLessThan(5000);
    const exited = await registry.read(started.processHandle, { stdoutOffset: read.stdout.nextOffset, stderrOffset: 0, waitMs: 10_000, maxBytes: 1024 });
    expect(exited).toMatchObject({ state: 'exited', exitCode: 0 });
  });

  it('keeps at most maxHandles running processes, making room by forgetting exited ones', async () => {
    const long = 'setInterval(() => {}, 1000)';
    const a = await registry.start(node(long));
    await registry.start(node(long));
    const done = await registry.start(node('process.exit(3)'));
    await eventually(() => registry.status(done.processHandle).state === 'exited', 5000);
    await registry.start(node(long)); // replaces the exited handle
    expect(await code(() => registry.status(done.processHandle))).toBe('NOT_FOUND');
    expect(await code(registry.start(node(long)))).toBe('OUTPUT_LIMIT');
    await registry.stop(a.processHandle, { force: true });
    expect((await registry.start(node(long))).state).toBe('running');
  });

  it('overwrites old output past ringBytes and says how much was lost', async () => {
    const started = await registry.start(node('process.stdout.write("x".repeat(5000))'));
    await eventually(() => registry.status(started.processHandle).state === 'exited', 5000);
    const read = await registry.read(started.processHandle, { stdoutOffset: 0, stderrOffset: 0, waitMs: 0, maxBytes: 4096 });
    expect(read.stdoutBytes).toBe(5000);
    expect(read.stdout).toMatchObject({ offset: 5000 - 1024, droppedBytes: 5000 - 1024, nextOffset: 5000 });
    expect(read.stdout.text).toBe('x'.repeat(1024));
  });

  it.runIf(isLinux)('ends an idle handle with its whole tree and forgets it', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const script = writeScript(dir, 'tree.sh', `#!/bin/sh\nsleep 60 &\necho $! > ${pidFile}\nwait\n`);
    const started = await registry.start({ ...node(''), file: script, args: [], handles: { ...limits, idleMs: 1000 } });
    await eventually(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 5000);
    const grandchild = readPid(pidFile);
    expect(await eventually(() => isGone(started.pid) && isGone(grandchild), 8000)).toBe(true);
    expect(await code(() => registry.status(started.processHandle))).toBe('NOT_FOUND');
  });

  it.runIf(isLinux)('stop leaves no orphan: the grandchild a process started is gone too', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const script = writeScript(dir, 'tree.sh', `#!/bin/sh\nsleep 60 &\necho $! > ${pidFile}\nwait\n`);
    const started = await registry.start({ ...node(''), file: script, args: [] });
    await eventually(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 5000);
    await registry.stop(started.processHandle, { force: false });
    expect(await eventually(() => isGone(readPid(pidFile)), 5000)).toBe(true);
  });

  it('starts racing for the last handles never exceed maxHandles', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => code(registry.start(node('setInterval(() => {}, 1000)')))));
    expect(results.sort()).toEqual(['OUTPUT_LIMIT', 'OUTPUT_LIMIT', 'ok', 'ok', 'ok']);
    expect(registry.size).toBe(3);
  });

  it('shell.exec promotion: a command still running at promoteAfterMs goes on under a handle past timeoutMs, like a started one', async () => {
    // Times from the script's start, wide enough for a node that takes most of a second to start on a loaded machine.
    const script = 'console.log("one"); setTimeout(() => console.log("two"), 1600); setTimeout(() => console.log("three"), 3000); setInterval(() => {}, 1000)';
    const result = await runCommand(node(script, { promoteAfterMs: 1000, timeoutMs: 2000 }), { registry });
    expect(result).toMatchObject({ exitCode: null, timedOut: false, stdout: 'one\n' });
    const handle = result.processHandle!;
    // timeoutMs bounded only the wait in the call: at 3 s the command still runs and writes.
    const more = await registry.read(handle, { stdoutOffset: 4, stderrOffset: 0, waitMs: 5000, maxBytes: 1024 });
    expect(more.stdout.text).toBe('two\n');
    const last = await registry.read(handle, { stdoutOffset: 8, stderrOffset: 0, waitMs: 5000, maxBytes: 1024 });
    expect(last).toMatchObject({ state: 'running', timedOut: false, stdout: { text: 'three\n' } });
    expect(last.durationMs).toBeGreaterThan(2900);
    expect(await registry.stop(handle, { force: false })).toMatchObject({ state: 'exited', signal: 'SIGTERM', timedOut: false });
  });

  it('a promoted command idles out like a started one', async () => {
    const result = await runCommand(node('setInterval(() => {}, 1000)', { promoteAfterMs: 100, handles: { ...limits, idleMs: 1000 } }), { registry });
    const pid = registry.status(result.processHandle!).pid;
    expect(await eventually(() => isGone(pid), 8000)).toBe(true);
    expect(await code(() => registry.status(result.processHandle!))).toBe('NOT_FOUND');
  });

  it('with keepTimeout (the caller set timeoutMs), the timeout still ends a promoted command', async () => {
    const request = node('console.log("one"); setTimeout(() => {}, 60000)', { promoteAfterMs: 200, timeoutMs: 1200, keepTimeout: true });
    const result = await runCommand(request, { registry });
    const handle = result.processHandle!;
    expect(registry.status(handle).state).toBe('running');
    expect(await eventually(() => registry.status(handle).state === 'exited', 5000)).toBe(true);
    expect(registry.status(handle)).toMatchObject({ timedOut: true, signal: 'SIGTERM' });
    expect(registry.status(handle).durationMs).toBeLessThan(4000);
  });

  it('every handle holding a running process: the call waits as before and says so', async () => {
    const one = { ...limits, maxHandles: 1 };
    await registry.start(node('setInterval(() => {}, 1000)', { handles: one }));
    const finishes = await runCommand(node('setTimeout(() => console.log("done"), 500)', { promoteAfterMs: 100, handles: one }), { registry });
    expect(finishes).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false, handlesFull: true });
    expect(finishes.processHandle).toBeUndefined();
    const t0 = Date.now();
    const killed = await runCommand(node('setInterval(() => {}, 1000)', { promoteAfterMs: 100, timeoutMs: 800, handles: one }), { registry });
    expect(killed).toMatchObject({ exitCode: null, timedOut: true, handlesFull: true });
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(registry.size).toBe(1);
  });

  it('a command that finishes before promoteAfterMs is an ordinary result', async () => {
    const result = await runCommand(node('console.log("quick")', { promoteAfterMs: 5000 }), { registry });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'quick\n' });
    expect(result.processHandle).toBeUndefined();
    expect(result.handlesFull).toBeUndefined();
    expect(registry.size).toBe(0);
  });

  it('a process that does not read its input gets what fits within the wait; the call returns and says what was left', async () => {
    // Reads nothing until told to through a file, then counts what it got.
    const gate = path.join(dir, 'gate');
    const lazy = `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); let n = 0; process.stdin.on('data', (d) => (n += d.length)); process.stdin.on('end', () => console.log('read ' + n)); } }, 20);`;
    const started = await registry.start(node(lazy));
    const data = 'é'.repeat(500 * 1024); // 1000 KiB of UTF-8
    const t0 = Date.now();
    const first = await registry.write(started.processHandle, data, true, 300);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(first.bytesLeft).toBeGreaterThan(0);
    expect(first.bytesWritten + first.bytesLeft!).toBe(Buffer.byteLength(data));
    expect(Buffer.byteLength(data.slice(0, first.charsWritten))).toBe(first.bytesWritten);
    // Not closed: the rest has not gone in.
    expect(first.stdinOpen).toBe(true);
    fs.writeFileSync(gate, '');
    const rest = await registry.write(started.processHandle, data.slice(first.charsWritten), true, 20_000);
    expect(rest).toEqual({ bytesWritten: first.bytesLeft, stdinOpen: false });
    const out = await registry.read(started.processHandle, { stdoutOffset: 0, stderrOffset: 0, waitMs: 10_000, maxBytes: 1024 });
    expect(out.stdout.text).toBe(`read ${Buffer.byteLength(data)}\n`);
  });
});
