/**
 * The bubblewrap (bwrap) command line for a sandbox plan, on Linux. The command gets its own
 * mount, pid, IPC, UTS and cgroup namespaces (and network, unless the plan shares it), no
 * capabilities, no nested user namespaces where the kernel lets bwrap create one, a fresh /dev
 * and /proc (only its own processes: this server's /proc/<pid>/environ is not there; the kernel's
 * settings under /proc/sys read-only), and the
 * filesystem as the plan's entries say, mounted in their order.
 *
 * Lifetime: bwrap runs as the process the caller spawned (the leader of its process group) and
 * the command below it stays in that group, so a group kill reaches everything. Besides,
 * --die-with-parent and the pid namespace end every process inside when bwrap or the command
 * ends: nothing started inside outlives the call, not even a program that called setsid(). The
 * command is process 1 of its pid namespace (--as-pid-1), so like any init it ignores signals
 * sent from inside the sandbox that it has no handler for (`kill $$` does nothing); signals from
 * outside, the timeout's included, end bwrap and with it everything inside.
 *
 * Every place an entry mounts from reaches bwrap as a descriptor (--bind-fd, --ro-bind-fd), which
 * the server opened and checked right before the start (bind-sources.ts), never as a path: bwrap
 * would resolve a path only once it runs, after the plan was made, and a program the model started
 * earlier can swap a folder in a writable root for a link in between, which would mount the place
 * the link names (outside every root) writable. Where to mount bwrap still finds by path, so where
 * the guard was built the command starts behind it (guard-plan.ts), which checks every mount is
 * where the plan put it before it execs the command.
 */
import type { SandboxPlan } from '../../contract/sandbox.js';
import { guardArgs, type GuardPlan } from './guard-plan.js';

export interface NamespaceOptions {
  userNamespace: boolean;
  /** A private network namespace (only its own loopback). */
  privateNetwork: boolean;
  /** A private IPC namespace (System V shared memory of the X server is not reachable). */
  privateIpc: boolean;
}

/** Namespaces and privileges: the same for the launch and for the probe at start. */
export function namespaceArgs(options: NamespaceOptions): string[] {
  return [
    // Unprivileged: a user namespace, and none nested inside (they would give capabilities back
    // there). As root, --cap-drop is what takes the capabilities away (bwrap keeps them otherwise).
    ...(options.userNamespace ? ['--unshare-user', '--disable-userns'] : ['--unshare-user-try']),
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(options.privateIpc ? ['--unshare-ipc'] : []),
    ...(options.privateNetwork ? ['--unshare-net'] : []),
    // The command is process 1 of its namespace, bwrap's direct child: bwrap reaps it, so no
    // zombie of the sandbox lingers in the command's process group after the call (bwrap's own
    // init would be left to the system's init to reap, and the group would look alive until then).
    '--as-pid-1',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
  ];
}

/**
 * The kernel's settings in a fresh /proc stay read-only. A server run as root maps root to root
 * in the sandbox, and with /proc/sys writable a command could set kernel.core_pattern to a
 * program of its own, which the kernel then runs as root outside every namespace.
 */
const PROC_COVERS = ['--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger'];

/** Devices a program using the display may need (GPU, sound), when display access is on. */
const DISPLAY_DEVICES = ['/dev/dri', '/dev/snd'];

/** The descriptor bwrap finds the first place to mount from at (after stdin, stdout and stderr). */
export const FIRST_SOURCE_FD = 3;

/** The places the plan's entries mount from (those read or written), in the order of their descriptors. */
export function mountSources(plan: SandboxPlan): string[] {
  return plan.entries.flatMap((entry) => (entry.access === 'read' || entry.access === 'write' ? [entry.path] : []));
}

/**
 * bwrap's arguments: the sandbox, then `command` with `args` (exec'd by bwrap, no shell, or by the
 * guard when `guard` is given). Open from FIRST_SOURCE_FD on: mountSources(plan), and with the guard
 * its folders, the sources again and the guard program (guard-plan.ts).
 */
export function bubblewrapArgs(plan: SandboxPlan, cwd: string | undefined, command: string, args: readonly string[], guard?: GuardPlan): string[] {
  const out = namespaceArgs({ userNamespace: plan.userNamespace, privateNetwork: plan.network !== 'on', privateIpc: !plan.display });
  out.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...PROC_COVERS);
  if (plan.display) for (const device of DISPLAY_DEVICES) out.push('--dev-bind-try', device, device);
  const sealed: string[] = [];
  let source = FIRST_SOURCE_FD;
  for (const entry of plan.entries) {
    if (entry.access === 'temp') out.push('--tmpfs', entry.path);
    else if (entry.access === 'read') out.push('--ro-bind-fd', String(source++), entry.path);
    else if (entry.access === 'write') out.push('--bind-fd', String(source++), entry.path);
    else if (entry.kind === 'directory') {
      out.push('--tmpfs', entry.path);
      sealed.push(entry.path);
    } else out.push('--ro-bind', '/dev/null', entry.path);
  }
  // Hidden folders become read-only last: later entries may have needed mount points inside them.
  for (const path of sealed) out.push('--remount-ro', path);
  if (cwd !== undefined) out.push('--chdir', cwd);
  if (!guard) out.push('--', command, ...args);
  else out.push('--', ...guardArgs(guard, source - FIRST_SOURCE_FD, command, args));
  return out;
}
