/** Shared helpers for the process tests: temp dirs, scripts and "is this pid really gone". */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cmcp-${prefix}-`));
}

export function writeScript(dir: string, name: string, body: string, mode = 0o755): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body, { mode });
  fs.chmodSync(file, mode);
  return file;
}

export function readPid(file: string): number {
  return Number(fs.readFileSync(file, 'utf8').trim());
}

/** Gone = no /proc entry, or a zombie (dead, waiting for a slow init to reap it). Linux only. */
export function isGone(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** Polls until `check` holds or `ms` passed; returns the last result. */
export async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export const isLinux = process.platform === 'linux';
export const isPosix = process.platform !== 'win32';
export const BASE_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin' };
