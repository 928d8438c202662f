/**
 * A supervisor that was killed outright (SIGKILL, a crash, a power cut of the terminal) cannot
 * stop its tunnel client, which would keep polling with the key and answer for a dead server.
 * So each supervisor keeps a record of its child (`tunnel-client-<supervisor pid>.pid`: pid and
 * program), and a start ends the children of records whose supervisor is gone, if they still
 * run that same program. The program is checked on the process's command line, so a recycled
 * pid belonging to something else is never touched; a live supervisor's child (the tray app and
 * a `tunnel start` can share the folder) is never touched either.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { helperEnvironment } from '../../adapter/process/child-env.js';
import { windowsPowerShell } from '../../adapter/os/system-root.js';

const RECORD = /^tunnel-client-(\d+)\.pid$/;

interface ChildRecord {
  pid: number;
  program: string;
}

const recordFile = (runDir: string, supervisor = process.pid) => path.join(runDir, `tunnel-client-${supervisor}.pid`);

export function recordChild(runDir: string, record: ChildRecord): void {
  fs.writeFileSync(recordFile(runDir), JSON.stringify(record) + '\n', { mode: 0o600 });
}

export function forgetChild(runDir: string): void {
  fs.rmSync(recordFile(runDir), { force: true });
}

/** Ends every recorded client that outlived its supervisor; resolves with their pids. */
export async function endStaleClients(runDir: string, waitMs = 3000): Promise<number[]> {
  let names: string[];
  try {
    names = fs.readdirSync(runDir);
  } catch {
    return [];
  }
  const ended: number[] = [];
  for (const name of names) {
    // A dead supervisor's health-URL file goes too.
    const health = Number(/^tunnel-health-(\d+)\.url$/.exec(name)?.[1]);
    if (health && health !== process.pid && !running(health)) fs.rmSync(path.join(runDir, name), { force: true });
    const supervisor = Number(RECORD.exec(name)?.[1]);
    if (!supervisor || supervisor === process.pid || running(supervisor)) continue;
    const pid = await endStaleClient(path.join(runDir, name), waitMs);
    if (pid) ended.push(pid);
  }
  return ended;
}

async function endStaleClient(file: string, waitMs: number): Promise<number | null> {
  let record: ChildRecord;
  try {
    record = JSON.parse(fs.readFileSync(file, 'utf8')) as ChildRecord;
  } catch {
    return null;
  } finally {
    fs.rmSync(file, { force: true });
  }
  if (!Number.isInteger(record.pid) || record.pid <= 1 || typeof record.program !== 'string' || !record.program) return null;
  if (!commandLine(record.pid)?.includes(record.program)) return null;
  try {
    process.kill(record.pid, 'SIGTERM');
  } catch {
    return null;
  }
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && running(record.pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  if (running(record.pid)) {
    try {
      process.kill(record.pid, 'SIGKILL');
    } catch {
      // gone in between
    }
  }
  return record.pid;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process's command line, or null when it does not exist (or cannot be read). */
function commandLine(pid: number): string | null {
  if (process.platform === 'linux') {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      return null;
    }
  }
  try {
    if (process.platform === 'win32') {
      // by absolute path from the system directory: never whatever `powershell.exe` PATH finds first
      return execFileSync(windowsPowerShell(), ['-NoProfile', '-Command', `(Get-CimInstance Win32_Process -Filter "ProcessId=${pid}").CommandLine`], {
        encoding: 'utf8',
        windowsHide: true,
        timeout: 5000,
        env: helperEnvironment(),
      });
    }
    // The short helper environment: this process's may hold the tunnel key or the bearer token.
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000, env: helperEnvironment() });
  } catch {
    return null;
  }
}
