/**
 * Ends a command's whole process tree deterministically. POSIX: the command runs as the leader
 * of its own process group, so the group is signalled (SIGTERM, then SIGKILL after a grace).
 * Windows has no groups: `taskkill /T /F` walks the parent links from the still-running root.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseProcStat, PROC_READ_CONCURRENCY } from './list-linux.js';
import { system32 } from '../os/system-root.js';
import { helperEnvironment } from './child-env.js';
import { mapLimit } from './map-limit.js';

const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;
/** After SIGKILL the kernel tears processes down quickly; this only bounds the wait for it. */
const KILL_SETTLE_MS = 1000;
const TASKKILL_TIMEOUT_MS = 5000;

/**
 * SIGTERM the group, SIGKILL whatever is still alive after `graceMs`, and wait until no live
 * member is left (bounded). False when the group was already gone and nothing was sent.
 */
export async function terminateGroup(pgid: number, graceMs: number, platform: NodeJS.Platform): Promise<boolean> {
  if (!signalGroup(pgid, 'SIGTERM')) return false;
  // A stopped member would not act on SIGTERM until continued.
  signalGroup(pgid, 'SIGCONT');
  if (await waitUntil(() => groupGone(pgid, platform), graceMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  await waitUntil(() => groupGone(pgid, platform), KILL_SETTLE_MS);
  return true;
}

/** True when no live process is left in the group (or none we may signal). */
async function groupGone(pgid: number, platform: NodeJS.Platform): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // ESRCH: empty group. EPERM: only members we may not signal remain (setuid children); waiting cannot help.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return true;
    throw error;
  }
  // kill(2) also counts zombies. Where init reaps slowly (containers) dead members linger for
  // seconds, so on Linux look at the members' states instead of waiting out the grace.
  return platform === 'linux' ? !(await linuxGroupHasLiveMember(pgid)) : false;
}

/**
 * Sends `signal` to every member of the group (0: none, only asks); false when the group no
 * longer exists, or has only members we may not signal. After every command the group is
 * signalled once for stragglers, and it is usually gone: the ESRCH is expected, so its error is
 * made without a stack trace (capturing one cost ~60 us per command).
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

async function linuxGroupHasLiveMember(pgid: number): Promise<boolean> {
  let entries: string[];
  try {
    entries = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return true; // cannot look closer: trust kill(2), which saw a member
  }
  const live = await mapLimit(entries, PROC_READ_CONCURRENCY, async (pid) => {
    try {
      const stat = parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
      return stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X';
    } catch {
      return false; // vanished while we looked
    }
  });
  return live.includes(true);
}

/** Polls fast at first (most trees are gone within a few ms of SIGTERM), then backs off. */
async function waitUntil(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
    if (await done()) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(delay, left));
  }
}

/**
 * Windows: kills `pid` and its descendants. taskkill is started by absolute path from the
 * system directory (never looked up on PATH) and without a shell. False when it failed.
 */
export function taskkillTree(pid: number): Promise<boolean> {
  const taskkill = system32('taskkill.exe');
  return new Promise((resolve) => {
    const child = spawn(taskkill, ['/T', '/F', '/PID', String(pid)], { shell: false, windowsHide: true, stdio: 'ignore', env: helperEnvironment() });
    const timer = setTimeout(() => {
      child.kill();
      resolve(false);
    }, TASKKILL_TIMEOUT_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
