/**
 * The Seatbelt profile (sandbox-exec -p) for a sandbox plan, on macOS. Seatbelt rules are checked
 * in order and the last one that matches decides, so the plan's entries map onto rules in their
 * own order. Paths are passed as parameters (-D P0=/path, (param "P0")): no path is ever quoted
 * into the profile text.
 *
 * Not yet run on a real Mac by this project (shell.sandbox "auto" is "off" on macOS for that
 * reason); the profile is unit-tested against the plan. What it enforces when it runs:
 * - files: everything readable except hidden entries; writes only in write and temp entries
 *   (temp is the owner's TMPDIR, shared, not private as on Linux) and a few devices;
 * - processes: signals and process information only within the sandbox;
 * - network: per the plan (none, loopback only, or all);
 * - display hidden: the window server and screen-capture services cannot be looked up;
 * - always: no Apple Events (osascript driving another app) and no LaunchServices (`open`
 *   starting an app outside the sandbox).
 */
import type { SandboxPlan } from '../../contract/sandbox.js';

export interface SeatbeltProfile {
  profile: string;
  /** -D values, in order: P0 is the first entry's path. */
  params: Array<[string, string]>;
}

const BASE = [
  '(version 1)',
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow file-read*)',
  '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (literal "/dev/tty"))',
  '(allow sysctl-read)',
  '(allow mach-lookup)',
  '(allow ipc-posix-shm* ipc-posix-sem)',
  '(allow iokit-open)',
  '(allow pseudo-tty)',
  '(allow user-preference-read)',
  '(allow system-socket)',
];

/** Services that start programs outside the sandbox. */
const LAUNCH_SERVICES = ['com.apple.coreservices.launchservicesd', 'com.apple.lsd.mapdb', 'com.apple.lsd.modifydb'];
/** The window server and the screen capture services: without them nothing can see or drive the screen. */
const DISPLAY_SERVICES = [
  'com.apple.windowserver',
  'com.apple.windowserver.active',
  'com.apple.CoreDisplay.master',
  'com.apple.screencapture.interactive',
  'com.apple.replayd',
  'com.apple.universalaccessd',
  'com.apple.tccd',
];

export function seatbeltProfile(plan: SandboxPlan): SeatbeltProfile {
  const lines = [...BASE];
  const params: Array<[string, string]> = [];
  lines.push(network(plan.network));
  for (const entry of plan.entries) {
    const name = `P${params.length}`;
    params.push([name, entry.path]);
    const where = entry.kind === 'directory' ? `(subpath (param "${name}"))` : `(literal (param "${name}"))`;
    if (entry.access === 'write' || entry.access === 'temp') lines.push(`(allow file-read* file-write* ${where})`);
    else if (entry.access === 'read') lines.push(`(allow file-read* ${where})`, `(deny file-write* ${where})`);
    else lines.push(`(deny file-read* file-write* ${where})`);
    // Not renamed or removed itself (what is inside stays as the rules say).
    if (entry.pinned) lines.push(`(deny file-write* (literal (param "${name}")))`);
  }
  lines.push(`(deny mach-lookup ${globalNames(LAUNCH_SERVICES)})`);
  if (!plan.display) lines.push(`(deny mach-lookup ${globalNames(DISPLAY_SERVICES)})`);
  return { profile: lines.join('\n') + '\n', params };
}

/** sandbox-exec's arguments for `command` with `args`. */
export function seatbeltArgs(plan: SandboxPlan, command: string, args: readonly string[]): string[] {
  const { profile, params } = seatbeltProfile(plan);
  return ['-p', profile, ...params.flatMap(([name, value]) => ['-D', `${name}=${value}`]), '--', command, ...args];
}

function network(mode: SandboxPlan['network']): string {
  if (mode === 'on') return '(allow network*)';
  if (mode === 'loopback') return '(allow network* (local ip "localhost:*") (remote ip "localhost:*"))';
  return '(deny network*)';
}

function globalNames(names: readonly string[]): string {
  return names.map((name) => `(global-name "${name}")`).join(' ');
}
