/**
 * Linux: the descendants of a process that left its process group (a daemon an unsandboxed
 * upstream started with setsid or setpgid), which signalling the group misses. Found through
 * /proc's parent links while the tree is still whole (before anything is signalled), each with
 * its start time, so a pid the kernel reused meanwhile is never signalled. A program that
 * double-forks before this looks is reparented away and not found: the sandbox (its own pid
 * namespace) is what ends everything.
 */
import { readdir, readFile } from 'node:fs/promises';
import { mapLimit } from './map-limit.js';
import { parseProcStat, PROC_READ_CONCURRENCY } from './list-linux.js';

export interface Escaped {
  pid: number;
  /** /proc/N/stat's starttime: the same pid with another start is another process. */
  start: string;
}

interface Entry extends Escaped {
  ppid: number;
  pgrp: number;
}

export async function escapedDescendants(root: number): Promise<Escaped[]> {
  let names: string[];
  try {
    names = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const entries = (await mapLimit(names, PROC_READ_CONCURRENCY, (pid) => readEntry(Number(pid)))).filter((e): e is Entry => e !== null);
  const children = new Map<number, Entry[]>();
  for (const entry of entries) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found: Escaped[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (child.pgrp !== root) found.push({ pid: child.pid, start: child.start });
      walk(child.pid);
    }
  };
  walk(root);
  return found;
}

/** Sends `signal` to each one still the process that was found. */
export async function signalEscaped(escaped: readonly Escaped[], signal: NodeJS.Signals): Promise<void> {
  for (const { pid, start } of escaped) {
    if ((await readEntry(pid))?.start !== start) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile, or not ours to signal
    }
  }
}

async function readEntry(pid: number): Promise<Entry | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').then(parseProcStat, () => null);
  if (!stat || stat.start === undefined || stat.state === 'Z') return null;
  return { pid, ppid: stat.ppid, pgrp: stat.pgrp, start: stat.start };
}
