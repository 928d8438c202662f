/**
 * Closes processes of one configured executable, and only those: candidates come from the OS's
 * record of each process's executable (app-processes.ts), a given pid must be one of them, and
 * each pid is re-checked right before it is signalled so a recycled pid is never hit. Polite
 * first (SIGTERM; taskkill without /F sends WM_CLOSE on Windows), then, with `force`, a kill.
 */
import { readFile } from 'node:fs/promises';
import { adapterError } from '../contract/errors.js';
import { system32 } from '../os/system-root.js';
import { runOsTool } from '../services/os-tool.js';
import type { CloseAppOptions, CloseAppResult } from '../contract/apps.js';
import { describeTarget, findProcesses, runsTarget, type ExecutableTarget } from './app-processes.js';

const OP = 'app.close';
export const GRACE_MS = 3000;
const KILL_WAIT_MS = 2000;
const POLL_MS = 50;

export async function closeApp(app: { path: string; args?: readonly string[] }, options: CloseAppOptions = {}): Promise<CloseAppResult> {
  const target = await describeTarget(app.path, app.args);
  if (!target) throw adapterError('NOT_FOUND', OP, `the configured executable ${app.path} does not exist`);
  const running = await findProcesses(target);

  let pids = running;
  if (options.pid !== undefined) {
    const pid = options.pid;
    if (!running.includes(pid)) {
      const list = running.length ? `its running pids are ${running.join(', ')}` : 'it has no running process';
      if (!(await isAlive(pid))) throw adapterError('NOT_FOUND', OP, `no process with pid ${pid} is running (${list})`);
      throw adapterError('INVALID_INPUT', OP, `pid ${pid} is not a process of ${app.path}; only that app's processes can be closed (${list})`);
    }
    pids = [pid];
  }

  const asked: number[] = [];
  for (const pid of pids) if (await signal(pid, target, false)) asked.push(pid);
  let survivors = await waitForExit(asked, GRACE_MS);
  if (options.force && survivors.length) {
    for (const pid of survivors) await signal(pid, target, true);
    survivors = await waitForExit(survivors, KILL_WAIT_MS);
  }
  return { closed: asked.filter((pid) => !survivors.includes(pid)), stillRunning: survivors };
}

/** Sends the close (or kill) request; false when the process is already gone or is no longer the app. */
async function signal(pid: number, target: ExecutableTarget, kill: boolean): Promise<boolean> {
  if (!(await runsTarget(pid, target))) return false;
  if (process.platform === 'win32') {
    const taskkill = system32('taskkill.exe');
    const result = await runOsTool(taskkill, kill ? ['/F', '/PID', String(pid)] : ['/PID', String(pid)], { operation: OP, timeoutMs: 10_000 });
    return result.code === 0 || !kill; // a window-less process refuses WM_CLOSE: `force` is the answer
  }
  try {
    process.kill(pid, kill ? 'SIGKILL' : 'SIGTERM');
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    throw adapterError('OS_ERROR', OP, `could not signal pid ${pid} (${code ?? 'unknown error'})`);
  }
}

async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = [...pids];
  while (alive.length) {
    alive = (await Promise.all(alive.map(async (pid) => ((await isAlive(pid)) ? pid : 0)))).filter(Boolean);
    if (!alive.length || Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return alive;
}

/** Running (a zombie has exited: it only waits for its parent to collect the status). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return false;
  // Field 3, after the parenthesised command name (which may itself contain spaces or parens).
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}
