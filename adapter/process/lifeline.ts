/**
 * Children never outlive the server, even one killed by SIGKILL. The kernel's PR_SET_PDEATHSIG
 * (the spawn addon, Linux) ends only the direct child: not what a command started itself, and
 * not a sandbox whose bwrap was still setting up when the server died (bwrap's inner process
 * asks for it only just before exec, when its parent may be gone). macOS has no such call.
 *
 * So one watcher per server, `/bin/sh` in a session of its own, keeps the process groups of the
 * server's live children (each child leads one: it started with setsid), read from a pipe whose
 * write end only the server holds: `+ <pgid>` when a child starts, `- <pgid>` once its group is
 * empty: when the child is reaped, or later, when what the command left running in its group has
 * ended too (it must die with the server as well; checked each second). The system hands out a
 * group's id again only after the group is empty, so a listed id is never someone else's.
 * When the server dies the kernel closes that end, `read` sees it, and the watcher kills every
 * group still listed. The line is written right after the child's exec, before a bwrap could
 * have set up (milliseconds): the window in which a SIGKILL escapes it is microseconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { isMainThread } from 'node:worker_threads';
import { signalGroup } from './kill-tree.js';
import { holdInWindowsJob } from './windows-job.js';

/** The watcher's name in process lists (its $0). */
export const LIFELINE_NAME = 'chatgpt-mcp-lifeline';

// Groups as " 12 34 " so that removing one is two pattern expansions (ids are unique).
const SCRIPT = `groups=" "
while read -r op id; do
  case $op in
    +) groups="$groups$id " ;;
    -) case $groups in *" $id "*) groups="\${groups%% $id *} \${groups#* $id }" ;; esac ;;
  esac
done
for id in $groups; do kill -s KILL -- "-$id" 2>/dev/null; done`;

let watcher: ChildProcess | null | undefined;
/** What was written to the current watcher: its list. */
const listed = new Set<number>();
const RECHECK_MS = 1000;

function started(): ChildProcess | null {
  if (watcher !== undefined) return watcher;
  try {
    watcher = spawn('/bin/sh', ['-c', SCRIPT, LIFELINE_NAME], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: '/usr/bin:/bin' },
      detached: true,
    });
  } catch {
    return (watcher = null); // no /bin/sh: children still end with a server that exits normally
  }
  const current = watcher;
  current.on('error', () => undefined);
  current.stdin?.on('error', () => undefined);
  // Never started, or gone (killed from outside): the next child starts a new one.
  current.once('exit', () => {
    if (watcher !== current) return;
    watcher = undefined;
    listed.clear();
  });
  // Neither keeps the server running: the pipe is only for the kernel to close.
  current.unref();
  (current.stdin as { unref?: () => void } | null)?.unref?.();
  return current;
}

/** Puts `child`'s process group (it leads one) on the watcher's list until the child exited and the group is empty (on Windows: the child in the watcher's job, windows-job.ts); a no-op in a worker thread or without a pid. */
export function holdLifeline(
  child: { readonly pid?: number | undefined; once(event: 'exit', listener: () => void): unknown },
  platform: NodeJS.Platform,
): void {
  const pid = child.pid;
  // A worker thread's pipe would close when the thread ends, not the process (none of ours starts commands).
  if (pid === undefined || !isMainThread) return;
  if (platform === 'win32') return holdInWindowsJob(pid);
  const current = started();
  if (!current?.stdin?.writable) return;
  current.stdin.write(`+ ${pid}\n`);
  listed.add(pid);
  child.once('exit', () => release(current, pid));
}

/** The groups on the watcher's list, for tests. */
export const lifelineGroups: ReadonlySet<number> = listed;

function release(current: ChildProcess, pgid: number): void {
  if (watcher !== current) return; // gone, and its list with it
  // a group with only members we may not signal counts as empty: the watcher could not end them either
  if (signalGroup(pgid, 0)) return void setTimeout(release, RECHECK_MS, current, pgid).unref();
  if (current.stdin?.writable) current.stdin.write(`- ${pgid}\n`);
  listed.delete(pgid);
}

/** The watcher's pid, for tests. */
export function lifelinePid(): number | undefined {
  return watcher?.pid;
}
