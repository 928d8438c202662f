/**
 * CPU time spent by a server, the figure least disturbed by other jobs on a shared machine
 * (time spent waiting for a core is not in it). In milliseconds, user + system.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** This process: every thread (the in-process servers, GC, the libuv pool), not its children. */
export function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let ticksPerSecond;

/**
 * Another process (a stdio server) from /proc; null where /proc is not available. With
 * `children`, also the time of its children that have exited and been waited for (the rg a
 * server runs per search).
 */
export function processCpuMs(pid, { children = false } = {}) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / ticksPerSecond;
}

/**
 * This process's exited and waited-for children (cutime + cstime, which include their own
 * waited-for descendants): a program the bench runs itself (rg), or the children an in-process
 * server waited for (bwrap's work is in the child, not the server). null without /proc.
 */
export function childrenCpuMs() {
  const all = processCpuMs(process.pid, { children: true });
  const own = processCpuMs(process.pid);
  return all === null || own === null ? null : all - own;
}
