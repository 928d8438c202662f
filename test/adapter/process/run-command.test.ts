import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';
import type { ExecRequest } from '../../../adapter/contract/processes.js';
import { runCommand } from '../../../adapter/process/run-command.js';
import { nativeSpawner } from '../../../adapter/process/start-child.js';
import { BASE_ENV, isGone, isLinux, killQuietly, makeTempDir, readPid, writeScript } from './helpers.js';

let dir: string;
const leftovers: number[] = [];

beforeAll(() => {
  dir = makeTempDir('run');
});
afterAll(() => {
  for (const pid of leftovers) killQuietly(pid);
  fs.rmSync(dir, { recursive: true, force: true });
});

function req(file: string, args: string[] = [], extra: Partial<ExecRequest> = {}): ExecRequest {
  return { file, args, env: { ...BASE_ENV }, timeoutMs: 10_000, maxOutputBytes: 1024 * 1024, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isComputerAdapterError(error)) throw new Error(`expected an adapter error, got ${String(error)}`);
  return error;
}

describe.runIf(isLinux)('runCommand (real processes, Linux)', () => {
  it('returns stdout, stderr and exit code 0', async () => {
    const result = await runCommand(req('/bin/sh', ['-c', 'echo hello; echo warn >&2']));
    expect(result).toMatchObject({ exitCode: 0, signal: null, stdout: 'hello\n', stderr: 'warn\n', timedOut: false });
    expect(result.stdoutTruncated).toBe(false);
    expect(result.stderrTruncated).toBe(false);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('passes arguments verbatim, with no shell in between', async () => {
    const args = ['$HOME', '*', 'a b', '', '; rm -rf /', '"quoted"'];
    const result = await runCommand(req(process.execPath, ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', ...args]));
    expect(JSON.parse(result.stdout)).toEqual(args);
  });

  it('argv0 sets what the program sees as its name (multi-call binaries dispatch on it)', async () => {
    const result = await runCommand(req(process.execPath, ['-e', 'console.log(process.argv0)'], { argv0: 'busybox-style-name' }));
    expect(result.stdout).toBe('busybox-style-name\n');
    const plain = await runCommand(req(process.execPath, ['-e', 'console.log(process.argv0)']));
    expect(plain.stdout).toBe(`${process.execPath}\n`);
  });

  it('a non-zero exit is a normal result', async () => {
    const result = await runCommand(req('/bin/sh', ['-c', 'echo out; echo err >&2; exit 3']));
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false });
  });

  it('reports death by signal as signal, not exit code', async () => {
    const result = await runCommand(req('/bin/sh', ['-c', 'kill -USR1 $$']));
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGUSR1', timedOut: false });
  });

  it('stdin is closed: cat returns at once', async () => {
    const result = await runCommand(req('/bin/cat', [], { timeoutMs: 5000 }));
    expect(result).toMatchObject({ exitCode: 0, stdout: '', timedOut: false });
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('the environment is exactly the one passed', async () => {
    const result = await runCommand(req('/usr/bin/env', [], { env: { ONLY: 'this', SECOND: 'two words' } }));
    expect(result.stdout.trim().split('\n').sort()).toEqual(['ONLY=this', 'SECOND=two words']);
  });

  it('runs in the given working directory', async () => {
    const result = await runCommand(req('/bin/pwd', [], { cwd: dir }));
    expect(result.stdout.trim()).toBe(fs.realpathSync(dir));
  });

  it('runs the command as the leader of its own process group', async () => {
    const result = await runCommand(req('/bin/cat', ['/proc/self/stat']));
    const stat = result.stdout;
    const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(pgrp)).toBe(Number(stat.split(' ')[0]));
  });

  it('a timeout kills the whole tree and leaves no orphan', async () => {
    const script = writeScript(dir, 'tree.sh', '#!/bin/sh\nsleep 30 &\necho $! > "$1/grandchild.pid"\necho $$ > "$1/child.pid"\necho started\nsleep 30\n');
    const result = await runCommand(req(script, [dir], { timeoutMs: 700 }));
    const child = readPid(path.join(dir, 'child.pid'));
    const grandchild = readPid(path.join(dir, 'grandchild.pid'));
    leftovers.push(child, grandchild);
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM', stdout: 'started\n' });
    expect(result.durationMs).toBeGreaterThanOrEqual(690);
    expect(result.durationMs).toBeLessThan(700 + 1500);
    // Checked immediately: runCommand only resolves once no live member of the group is left.
    expect(isGone(child)).toBe(true);
    expect(isGone(grandchild)).toBe(true);
  });

  it('SIGKILLs a tree that ignores SIGTERM after the grace', async () => {
    const script = writeScript(dir, 'stubborn.sh', '#!/bin/sh\ntrap "" TERM\nsleep 30 &\necho $! > "$1/stubborn.pid"\nwait\n');
    const started = Date.now();
    const result = await runCommand(req(script, [dir], { timeoutMs: 300 }), { killGraceMs: 300 });
    const grandchild = readPid(path.join(dir, 'stubborn.pid'));
    leftovers.push(grandchild);
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(300 + 300 + 1500);
    expect(isGone(grandchild)).toBe(true);
  });

  it('resolves promptly when an escaped descendant keeps the pipes open', async () => {
    // setsid takes the sleep out of the process group: it survives the group kill and holds stdout.
    const script = writeScript(dir, 'escape.sh', '#!/bin/sh\nsetsid sleep 30 &\necho $! > "$1/escaped.pid"\nsleep 30\n');
    const result = await runCommand(req(script, [dir], { timeoutMs: 300 }));
    leftovers.push(readPid(path.join(dir, 'escaped.pid')));
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(300 + 1500);
  });

  it('ends what the command left running in its group when it exits normally', async () => {
    const script = writeScript(dir, 'leaves.sh', '#!/bin/sh\nsleep 30 &\necho $! > "$1/left.pid"\necho done\n');
    const result = await runCommand(req(script, [dir]));
    const left = readPid(path.join(dir, 'left.pid'));
    leftovers.push(left);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false });
    expect(result.durationMs).toBeLessThan(1500);
    expect(isGone(left)).toBe(true);
  });

  it('an aborted signal kills the tree like a timeout (timedOut stays false)', async () => {
    const script = writeScript(dir, 'abort.sh', '#!/bin/sh\nsleep 30 &\necho $! > "$1/abort.pid"\nsleep 30\n');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await runCommand(req(script, [dir], { signal: controller.signal }));
    const grandchild = readPid(path.join(dir, 'abort.pid'));
    leftovers.push(grandchild);
    expect(result).toMatchObject({ timedOut: false, exitCode: null, signal: 'SIGTERM' });
    expect(result.durationMs).toBeLessThan(2000);
    expect(isGone(grandchild)).toBe(true);
  });

  it('an already aborted signal starts nothing', async () => {
    const marker = path.join(dir, 'should-not-exist');
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(runCommand(req('/usr/bin/touch', [marker], { signal: controller.signal })));
    expect(error.code).toBe('PRECONDITION_FAILED');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('bounds 100 MB of output to maxOutputBytes while memory stays bounded', async () => {
    const bound = 64 * 1024;
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const result = await runCommand(req('/usr/bin/head', ['-c', '100000000', '/dev/zero'], { maxOutputBytes: bound, timeoutMs: 30_000 }));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const growthMb = (peak - before) / 2 ** 20;
    console.log(
      `[measure] 100 MB through runCommand: ${result.durationMs} ms, rss before ${(before / 2 ** 20).toFixed(1)} MB, ` +
        `peak ${(peak / 2 ** 20).toFixed(1)} MB (growth ${growthMb.toFixed(1)} MB)`,
    );
    // Exit code 0 and no timeout: head wrote all 100 MB, so the pipe kept being drained past the bound.
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdoutTruncated: true, stderrTruncated: false });
    // NUL bytes are not text: reported by size and preview, never escaped into the answer.
    expect(result.stdout).toBe('');
    expect(result.stdoutBinary).toMatchObject({ bytes: bound });
    // Buffering it all would grow by >= 100 MB. What remains is garbage from Node's 64 KiB pipe
    // reads awaiting GC (~40 MB at most, the same for 1 GB and for a bare spawn that only counts bytes).
    expect(growthMb).toBeLessThan(64);
  });

  it('bounds stderr independently of stdout', async () => {
    const result = await runCommand(req('/bin/sh', ['-c', 'echo small; head -c 200000 /dev/zero | tr "\\0" x >&2'], { maxOutputBytes: 1000 }));
    expect(result).toMatchObject({ stdout: 'small\n', stdoutTruncated: false, stderrTruncated: true });
    expect(result.stderr).toBe('x'.repeat(1000));
  });

  it('cuts truncated output at a UTF-8 character boundary', async () => {
    const script = "process.stdout.write('é'.repeat(1000))";
    const result = await runCommand(req(process.execPath, ['-e', script], { maxOutputBytes: 1001 }));
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdout).toBe('é'.repeat(500));
  });

  it('keeps even invalid (binary) output within the byte bound', async () => {
    const script = 'process.stdout.write(Buffer.alloc(100, 0xff))';
    const result = await runCommand(req(process.execPath, ['-e', script], { maxOutputBytes: 50 }));
    expect(result.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(50);
  });

  it('maxOutputBytes 0 captures nothing but still reports truncation', async () => {
    const result = await runCommand(req('/bin/echo', ['x'], { maxOutputBytes: 0 }));
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stdoutTruncated: true });
  });

  it('measures the latency of running `true` (median of 50, next to a bare spawn)', async () => {
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 50; i++) {
      let started = performance.now();
      const result = await runCommand(req('/bin/true'));
      ours.push(performance.now() - started);
      expect(result.exitCode).toBe(0);
      started = performance.now();
      await new Promise((resolve) => spawn('/bin/true', [], { stdio: ['ignore', 'pipe', 'pipe'], detached: true }).once('close', resolve));
      bare.push(performance.now() - started);
    }
    const median = (times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return ((sorted[24] as number) + (sorted[25] as number)) / 2;
    };
    console.log(`[measure] /bin/true median of 50: runCommand ${median(ours).toFixed(2)} ms, bare child_process.spawn ${median(bare).toFixed(2)} ms`);
    // The bound only catches a runaway (e.g. waiting out the linger or a kill grace on every call).
    expect(median(ours)).toBeLessThan(median(bare) + 100);
  });
});

describe.runIf(isLinux)('runCommand start failures', () => {
  it('a missing executable is NOT_FOUND', async () => {
    const error = await rejection(runCommand(req(path.join(dir ?? '/tmp', 'no-such-program'))));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toMatch(/no such file/);
  });

  it('a file without execute permission is OS_ERROR (EACCES)', async () => {
    const file = writeScript(dir, 'not-executable.sh', '#!/bin/sh\necho hi\n', 0o644);
    const error = await rejection(runCommand(req(file)));
    expect(error.code).toBe('OS_ERROR');
    expect(error.message).toMatch(/EACCES/);
  });

  it('a missing working directory is NOT_FOUND and says so', async () => {
    const error = await rejection(runCommand(req('/bin/true', [], { cwd: path.join(dir, 'missing-dir') })));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toMatch(/working directory/);
  });

  it('a script whose #! interpreter is missing is NOT_FOUND and names the cause', async () => {
    const file = writeScript(dir, 'bad-interp.sh', '#!/nonexistent/interpreter\n');
    const error = await rejection(runCommand(req(file)));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toMatch(/interpreter/);
  });

  it.runIf(nativeSpawner())('a file with no #! line that is not a program is OS_ERROR (ENOEXEC), not run by /bin/sh', async () => {
    const marker = path.join(dir, 'ran-through-sh');
    const file = writeScript(dir, 'no-shebang', `touch ${marker}\n`);
    const error = await rejection(runCommand(req(file)));
    expect(error.code).toBe('OS_ERROR');
    expect(error.message).toMatch(/no #! line \(ENOEXEC\)/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects a relative executable, bad bounds and NUL bytes as INVALID_INPUT', async () => {
    expect((await rejection(runCommand(req('sh')))).code).toBe('INVALID_INPUT');
    expect((await rejection(runCommand(req('/bin/true', [], { timeoutMs: 0 })))).code).toBe('INVALID_INPUT');
    expect((await rejection(runCommand(req('/bin/true', [], { maxOutputBytes: -1 })))).code).toBe('INVALID_INPUT');
    expect((await rejection(runCommand(req('/bin/echo', ['a\0b'])))).code).toBe('INVALID_INPUT');
  });
});
