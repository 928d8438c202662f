/**
 * Linux process listing straight from /proc (no ps dependency): stat for ppid and comm,
 * status for the effective uid, cmdline for the exact argv, exe for the executable name.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { isKernelThread, KTHREADD, parseStatFlags } from './kernel-thread.js';
import { mapLimit } from './map-limit.js';
import type { ProcessInfo } from '../contract/processes.js';

export interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgrp: number;
  /** starttime (field 22), when the line has it: the same pid with another start is another process. */
  start?: string;
}

/** Parses /proc/N/stat. comm may hold spaces and parentheses, so it ends at the LAST ')'. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open));
  const fields = text.slice(close + 2).split(' ');
  const [state, ppid, pgrp] = fields;
  if (!Number.isInteger(pid) || state === undefined || ppid === undefined || pgrp === undefined) return null;
  // Fields after comm start at field 3: starttime, field 22, is the 20th.
  const start = fields[19];
  return { pid, comm: text.slice(open + 1, close), state, ppid: Number(ppid), pgrp: Number(pgrp), ...(start === undefined ? {} : { start }) };
}

/** The effective uid from /proc/N/status (`Uid: real effective saved fs`), as ps reports it. */
export function parseStatusUid(text: string): number | null {
  const match = /^Uid:\s+\d+\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** uid -> name from /etc/passwd; the first entry wins, as with getpwuid. */
export function parsePasswd(text: string): Map<number, string> {
  const users = new Map<number, string>();
  for (const line of text.split('\n')) {
    const [name, , uid] = line.split(':');
    if (!name || uid === undefined || !/^\d+$/.test(uid) || users.has(Number(uid))) continue;
    users.set(Number(uid), name);
  }
  return users;
}

/** /proc/N/cmdline is argv joined and terminated by NUL; kernel threads have none. */
export function splitCmdline(buffer: Buffer): string[] {
  if (buffer.length === 0) return [];
  const text = buffer.toString('utf8');
  const parts = text.split('\0');
  if (text.endsWith('\0')) parts.pop();
  return parts;
}

/** The executable's name from the /proc/N/exe link, which reads `/path (deleted)` after the file was replaced. */
export function exeName(link: string): string {
  return path.posix.basename(link.endsWith(' (deleted)') ? link.slice(0, -' (deleted)'.length) : link);
}

/** Processes read in parallel (each holds up to three open files). */
export const PROC_READ_CONCURRENCY = 32;

export interface LinuxListOptions {
  procRoot?: string;
  passwdPath?: string;
}

export async function listLinuxProcesses(options: LinuxListOptions = {}): Promise<ProcessInfo[]> {
  const procRoot = options.procRoot ?? '/proc';
  const users = await readFile(options.passwdPath ?? '/etc/passwd', 'utf8').then(parsePasswd, () => new Map<number, string>());
  const pids = (await readdir(procRoot)).filter((name) => /^\d+$/.test(name));
  const processes = await mapLimit(pids, PROC_READ_CONCURRENCY, (pid) => readProcess(path.join(procRoot, pid), users));
  return processes.filter((p): p is ProcessInfo => p !== null).sort((a, b) => a.pid - b.pid);
}

/** Errors that mean "this process is gone or not ours to see" (hidepid), not a failed listing. */
const UNAVAILABLE = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM', 'ENOTDIR']);

async function readProcess(dir: string, users: Map<number, string>): Promise<ProcessInfo | null> {
  try {
    const [statText, statusText, cmdline] = await Promise.all([
      readFile(path.join(dir, 'stat'), 'utf8'),
      readFile(path.join(dir, 'status'), 'utf8'),
      readFile(path.join(dir, 'cmdline')),
    ]);
    const stat = parseProcStat(statText);
    const uid = parseStatusUid(statusText);
    if (stat === null || uid === null) return null;
    // exe is unreadable for other users' processes (unless root) and absent for kernel threads.
    const exe = await readlink(path.join(dir, 'exe')).catch(() => null);
    // Listed, not signalled: a stat without flags is not taken for a kernel thread here (hiding a real process would mislead).
    const flags = parseStatFlags(statText);
    const kernel = flags === null ? stat.pid === KTHREADD || stat.ppid === KTHREADD : isKernelThread(flags, stat.pid, stat.ppid);
    return {
      pid: stat.pid,
      ppid: stat.ppid,
      user: users.get(uid) ?? String(uid),
      uid,
      command: exe ? exeName(exe) : stat.comm,
      args: splitCmdline(cmdline),
      ...(kernel ? { kernel } : {}),
    };
  } catch (error) {
    if (UNAVAILABLE.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}
