/**
 * CPU time of a process and its live descendants. Our stdio server does the desktop work in a
 * worker process it forks, so the server's own /proc figure would leave out the capture and
 * the encoding. Children that already exited are not counted: neither server in the desktop
 * scenario spawns one per call.
 */
import fs from 'node:fs';
import { processCpuMs } from './cpu.mjs';

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

/** Milliseconds of user + system time of rootPid and its descendants, or null where /proc cannot be read. */
export function treeCpuMs(rootPid) {
  if (processCpuMs(rootPid) === null) return null;
  return processTree(rootPid).reduce((total, pid) => total + (processCpuMs(pid) ?? 0), 0);
}
