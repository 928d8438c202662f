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

/** Another process (a stdio server) from /proc; null where /proc is not available. */
export function processCpuMs(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/**
 * CPU time of this process's children that have ended and been waited for (cutime + cstime,
 * which include their own waited-for descendants), from /proc; null where it is not available.
 * The sandbox's cost is mostly there: bwrap and its namespaces run in the child, not the server.
 */
export function childrenCpuMs() {
  let stat;
  try {
    stat = fs.readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
}
