import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isComputerAdapterError } from '../../../adapter/contract/errors.js';
import { allowedSignals, killError, killProcess, parseKillSignal } from '../../../adapter/process/signals.js';
import { eventually, isLinux, isPosix, killQuietly } from './helpers.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.pid) killQuietly(child.pid);
});

function sleeper(): ChildProcess & { pid: number } {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  if (child.pid === undefined) throw new Error('sleep did not start');
  return child as ChildProcess & { pid: number };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isComputerAdapterError(error)) throw new Error(`expected an adapter error, got ${String(error)}`);
  return error.code;
}

function procState(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.charAt(stat.lastIndexOf(')') + 2);
}

describe.runIf(isPosix)('killProcess (real processes)', () => {
  it('SIGTERM ends a sleeping child', async () => {
    const child = sleeper();
    const exit = exitOf(child);
    await killProcess(child.pid, 'SIGTERM');
    expect(await exit).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it.runIf(isLinux)('SIGSTOP and SIGCONT stop and resume', async () => {
    const child = sleeper();
    await killProcess(child.pid, 'SIGSTOP');
    expect(await eventually(() => procState(child.pid) === 'T')).toBe(true);
    await killProcess(child.pid, 'SIGCONT');
    expect(await eventually(() => procState(child.pid) === 'S')).toBe(true);
  });

  it('a dead pid is NOT_FOUND', async () => {
    const child = spawn('true', [], { stdio: 'ignore' });
    await exitOf(child);
    expect(await codeOf(killProcess(child.pid as number, 'SIGTERM'))).toBe('NOT_FOUND');
  });

  it('an unknown or mis-spelled signal is INVALID_INPUT and nothing is sent', async () => {
    const child = sleeper();
    for (const name of ['SIGFOO', 'sigterm', 'TERM', '9', '', 'SIGSEGV']) {
      expect(await codeOf(killProcess(child.pid, name))).toBe('INVALID_INPUT');
    }
    // Give a wrongly sent signal time to land before checking the child is untouched.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
  });

  it('pids that would address process groups are INVALID_INPUT', async () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN]) {
      expect(await codeOf(killProcess(pid, 'SIGTERM'))).toBe('INVALID_INPUT');
    }
  });
});

describe('signal names per platform', () => {
  it('POSIX allows the nine documented signals', () => {
    expect(allowedSignals('linux')).toEqual(['SIGTERM', 'SIGKILL', 'SIGINT', 'SIGHUP', 'SIGSTOP', 'SIGCONT', 'SIGUSR1', 'SIGUSR2', 'SIGQUIT']);
    expect(parseKillSignal('SIGUSR2', 'darwin')).toBe('SIGUSR2');
  });

  it('Windows allows only SIGTERM, SIGKILL and SIGINT and says why', () => {
    expect(parseKillSignal('SIGKILL', 'win32')).toBe('SIGKILL');
    let message = '';
    try {
      parseKillSignal('SIGHUP', 'win32');
    } catch (error) {
      expect(isComputerAdapterError(error) && error.code).toBe('INVALID_INPUT');
      message = (error as Error).message;
    }
    expect(message).toContain('SIGTERM, SIGKILL, SIGINT');
    expect(message).toContain('Windows');
  });
});

describe('kill error mapping', () => {
  const errno = (code: string) => Object.assign(new Error(code), { code });

  it('EPERM is OS_ERROR that explains the permission problem', () => {
    const error = killError(errno('EPERM'), 1, 'SIGTERM');
    expect(isComputerAdapterError(error) && error.code).toBe('OS_ERROR');
    expect(error.message).toMatch(/not permitted.*EPERM.*another user/);
  });

  it('ESRCH is NOT_FOUND; anything else is OS_ERROR with its code', () => {
    const notFound = killError(errno('ESRCH'), 42, 'SIGTERM');
    expect(isComputerAdapterError(notFound) && notFound.code).toBe('NOT_FOUND');
    const other = killError(errno('EINVAL'), 42, 'SIGTERM');
    expect(isComputerAdapterError(other) && other.code).toBe('OS_ERROR');
    expect(other.message).toContain('EINVAL');
  });
});
