/**
 * What process an id names, for the process policy (PolicyPort.processIdentity). On Linux a
 * signal sent to any thread id reaches the whole thread group, so the id is resolved to its
 * thread-group leader first; kernel threads are recognised by their PF_KTHREAD flag.
 *
 * - Linux: exact, from /proc/<id>/status (Tgid, PPid, effective Uid) and /proc/<tgid>/stat
 *   (flags). /proc/<tid> answers for thread ids even though /proc does not list them.
 * - macOS: thread ids are not pids (kill(2) takes process ids only), so the process listing
 *   (ps) is the source; the owner is the user name; pid 0 (kernel_task) is the kernel.
 * - Windows: thread ids cannot be opened as processes, so the listing (CIM) is the source;
 *   the owner is unknown (null); pids 0 (Idle) and 4 (System) are the kernel.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { ProcessIdentity, OwnProcess } from '../contract/policy-port.js';
import { listProcesses } from './list.js';
import { isKernelThread, parseStatFlags } from './kernel-thread.js';
import type { ProcessInfo } from '../contract/processes.js';

export interface StatusIds {
  tgid: number;
  ppid: number;
  /** Effective uid, as ps reports the owner. */
  uid: number;
}

/** Tgid, PPid and the effective Uid from /proc/<id>/status, or null when a field is missing. */
export function parseStatusIds(text: string): StatusIds | null {
  const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+)(?:\\s+(\\d+))?`, 'm').exec(text);
  const tgid = field('Tgid');
  const ppid = field('PPid');
  const uid = field('Uid');
  if (!tgid || !ppid || !uid?.[2]) return null;
  return { tgid: Number(tgid[1]), ppid: Number(ppid[1]), uid: Number(uid[2]) };
}

/** Errors meaning "no such process, or not one this user may see" (hidepid): treated as absent. */
const ABSENT = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM', 'ENOTDIR', 'EINVAL']);

export async function linuxProcessIdentity(id: number, procRoot = '/proc'): Promise<ProcessIdentity | null> {
  try {
    const asked = parseStatusIds(await readFile(`${procRoot}/${id}/status`, 'utf8'));
    if (!asked) return null;
    const leader = asked.tgid === id ? asked : parseStatusIds(await readFile(`${procRoot}/${asked.tgid}/status`, 'utf8'));
    if (!leader) return null;
    const flags = parseStatFlags(await readFile(`${procRoot}/${asked.tgid}/stat`, 'utf8'));
    const kernel = isKernelThread(flags, asked.tgid, leader.ppid);
    return { pid: asked.tgid, ppid: leader.ppid, kernel, uid: leader.uid, user: null };
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

const KERNEL_PIDS: Partial<Record<NodeJS.Platform, readonly number[]>> = { darwin: [0], win32: [0, 4] };
/** One listing answers the walk up a parent chain (ps or PowerShell costs 50-500 ms a run). */
const LISTING_REUSE_MS = 1000;
let recent: { at: number; platform: NodeJS.Platform; processes: Promise<ProcessInfo[]> } | undefined;

function listing(platform: NodeJS.Platform): Promise<ProcessInfo[]> {
  if (!recent || recent.platform !== platform || Date.now() - recent.at > LISTING_REUSE_MS) {
    recent = { at: Date.now(), platform, processes: listProcesses(platform) };
  }
  return recent.processes;
}

/** macOS and Windows: the process listing, where pids are process ids and nothing else. */
async function listedProcessIdentity(id: number, platform: NodeJS.Platform): Promise<ProcessIdentity | null> {
  const found = (await listing(platform)).find((p) => p.pid === id);
  if (!found) return null;
  const kernel = (KERNEL_PIDS[platform] ?? []).includes(id);
  return { pid: found.pid, ppid: found.ppid, kernel, uid: found.uid ?? null, user: found.user || null };
}

export function processIdentity(id: number, platform: NodeJS.Platform): Promise<ProcessIdentity | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return Promise.resolve(null);
  return platform === 'linux' ? linuxProcessIdentity(id) : listedProcessIdentity(id, platform);
}

/** This server's process and its parent (the MCP host, the tray's launcher, the terminal). */
export function ownProcess(): OwnProcess {
  const uid = typeof process.geteuid === 'function' ? process.geteuid() : null;
  let user: string | null = null;
  try {
    user = os.userInfo().username;
  } catch {
    // no passwd entry for this uid: the uid alone identifies the owner
  }
  return { pid: process.pid, ppid: process.ppid, uid, user };
}
