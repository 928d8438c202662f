/**
 * Linux kernel threads: no program, no command line, never signalled. Recognised by the
 * PF_KTHREAD flag in /proc/<pid>/stat, or as kthreadd (pid 2) and its children.
 */

/** PF_KTHREAD in include/linux/sched.h: the task is a kernel thread. */
const PF_KTHREAD = 0x00200000;
/** kthreadd, the parent of every kernel thread. */
export const KTHREADD = 2;

/** The flags field (the 9th) of /proc/<pid>/stat; comm may hold spaces and parentheses. */
export function parseStatFlags(text: string): number | null {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const flags = Number(fields[6]);
  return Number.isSafeInteger(flags) ? flags : null;
}

/** Unreadable flags count as a kernel thread: refusing one too many is the safe side. */
export function isKernelThread(flags: number | null, pid: number, ppid: number): boolean {
  return flags === null || (flags & PF_KTHREAD) !== 0 || pid === KTHREADD || ppid === KTHREADD;
}
