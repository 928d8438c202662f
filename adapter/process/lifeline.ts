/**
 * Children never outlive the server, where the kernel cannot be asked for it (Linux's
 * PR_SET_PDEATHSIG in the spawn addon): on macOS, and on Linux without the addon. A watcher,
 * `/bin/sh` in a session of its own, blocks reading a pipe whose write end only the server
 * holds. When the server dies, even by SIGKILL, the kernel closes that end, `read` returns, and
 * the watcher kills the child's whole process group (the child leads one: it started with
 * setsid). When the child exits first, the server kills the watcher instead: it never lets the
 * pipe close then, since the group's id could belong to another process group by that time.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** The watcher's name in process lists (its $0). */
export const LIFELINE_NAME = 'chatgpt-mcp-lifeline';
const SCRIPT = 'read _; kill -s KILL -- "-$1" 2>/dev/null';

/** Watches `child` (a process group leader) on behalf of the server; a no-op on Windows or without a pid. */
export function holdLifeline(child: Pick<ChildProcess, 'pid' | 'once'>, platform: NodeJS.Platform): void {
  if (platform === 'win32' || child.pid === undefined) return;
  let watcher: ChildProcess;
  try {
    watcher = spawn('/bin/sh', ['-c', SCRIPT, LIFELINE_NAME, String(child.pid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: '/usr/bin:/bin' },
      detached: true,
    });
  } catch {
    return; // no /bin/sh: the child is still ended by a server that exits normally
  }
  watcher.on('error', () => undefined);
  watcher.stdin?.on('error', () => undefined);
  // Neither keeps the server running: the pipe is only for the kernel to close.
  watcher.unref();
  (watcher.stdin as { unref?: () => void } | null)?.unref?.();
  child.once('exit', () => watcher.kill('SIGKILL'));
}
