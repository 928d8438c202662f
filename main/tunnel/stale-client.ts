/**
 * A supervisor that was killed outright (SIGKILL, a crash, a power cut of the terminal) cannot
 * stop its tunnel client, which would keep polling with the key and answer for a dead server.
 * So each start leaves a record of the child (`tunnel-client.pid`: pid and program) and the
 * next start ends a child that is still running that same program. The program is checked on
 * the process's command line, so a recycled pid belonging to something else is never touched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PID_FILE_NAME = 'tunnel-client.pid';

interface ChildRecord {
  pid: number;
  program: string;
}

export function recordChild(runDir: string, record: ChildRecord): void {
  fs.writeFileSync(path.join(runDir, PID_FILE_NAME), JSON.stringify(record) + '\n', { mode: 0o600 });
}

export function forgetChild(runDir: string): void {
  fs.rmSync(path.join(runDir, PID_FILE_NAME), { force: true });
}

/** Ends a recorded client that outlived its supervisor; resolves with its pid, or null. */
export async function endStaleClient(runDir: string, waitMs = 3000): Promise<number | null> {
  let record: ChildRecord;
  try {
    record = JSON.parse(fs.readFileSync(path.join(runDir, PID_FILE_NAME), 'utf8')) as ChildRecord;
  } catch {
    return null;
  }
  forgetChild(runDir);
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
      return execFileSync('powershell.exe', ['-NoProfile', '-Command', `(Get-CimInstance Win32_Process -Filter "ProcessId=${pid}").CommandLine`], {
        encoding: 'utf8',
        windowsHide: true,
        timeout: 5000,
      });
    }
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 });
  } catch {
    return null;
  }
}
