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
 * server runs per search). The process's own time is the sum of its threads' run time in
 * nanoseconds where /proc has it (schedstat): /proc/N/stat counts in ticks of 10 ms, as much as
 * a round of quick calls costs in all.
 */
export function processCpuMs(pid, { children = false } = {}) {
  const ticks = statTicks(pid);
  if (ticks === null) return null;
  const threads = threadsNs(pid);
  const own = threads ? [...threads.values()].reduce((sum, ns) => sum + ns, 0) / 1e6 : ticks.own;
  return own + (children ? ticks.children : 0);
}

/**
 * This process's exited and waited-for children (cutime + cstime, which include their own
 * waited-for descendants): a program the bench runs itself (rg), or the children an in-process
 * server waited for (bwrap's work is in the child, not the server). null without /proc.
 */
export function childrenCpuMs() {
  return statTicks(process.pid)?.children ?? null;
}

/** utime + stime and cutime + cstime from /proc/N/stat, in ms (counted in ticks). */
function statTicks(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ms = (a, b) => ((Number(fields[a]) + Number(fields[b])) * 1000) / ticksPerSecond;
  return { own: ms(11, 12), children: ms(13, 14) };
}

/** Nanoseconds on a CPU of each live thread of `pid` (schedstat's first field): tid -> ns, or null where it cannot be read. */
export function threadsNs(pid) {
  let tids;
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const ns = new Map();
  for (const tid of tids) {
    try {
      ns.set(`${pid}/${tid}`, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended while we looked (a server's threads live as long as it does)
    }
  }
  return ns.size > 0 ? ns : null;
}
