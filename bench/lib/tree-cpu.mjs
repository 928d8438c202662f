/**
 * CPU time of a process and its live descendants. Our stdio server does the desktop work in a
 * worker process it forks, so the server's own /proc figure would leave out the capture and
 * the encoding. Children that already exited are not counted: neither server in the desktop
 * scenario spawns one per call.
 *
 * Read in nanoseconds, per thread, from /proc/<pid>/task/<tid>/schedstat: a desktop row's
 * baseline can make one call per round (computer-use-mcp sleeps 300 ms in a double click) and
 * use under a millisecond for it, which /proc/<pid>/stat's 10 ms ticks read as 0 CPU. Threads
 * that end keep the time they had when last read.
 */
import fs from 'node:fs';
import { processCpuMs, threadsNs } from './cpu.mjs';

/** pid -> child pids, from every /proc/<pid>/stat (field 4 is the parent). */
function childrenByParent() {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  return children;
}

export function processTree(rootPid) {
  const children = childrenByParent();
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * root pid -> every thread of its tree seen so far -> its last reading (ns), and the time of
 * threads whose id was reused. A thread that ended keeps its last reading, so the total never
 * goes back when a pool thread exits (sharp's libvips threads do); only what it ran after that
 * reading is lost, on both sides alike.
 */
const seenByRoot = new Map();

/** Milliseconds of CPU of rootPid and its descendants (per-thread nanoseconds, else 10 ms ticks), or null where /proc cannot be read. */
export function treeCpuMs(rootPid) {
  const tree = processTree(rootPid);
  const readings = tree.map(threadsNs);
  if (readings[0] === null) {
    if (processCpuMs(rootPid) === null) return null;
    return tree.reduce((total, pid) => total + (processCpuMs(pid) ?? 0), 0);
  }
  const seen = seenByRoot.get(rootPid) ?? { threads: new Map(), reusedNs: 0 };
  seenByRoot.set(rootPid, seen);
  for (const [id, ns] of readings.flatMap((reading) => [...(reading ?? [])])) {
    const last = seen.threads.get(id);
    if (last !== undefined && ns < last) seen.reusedNs += last; // a new thread under an old id
    seen.threads.set(id, ns);
  }
  let ns = seen.reusedNs;
  for (const value of seen.threads.values()) ns += value;
  return ns / 1e6;
}
