/**
 * How a request is started: as itself, or inside its sandbox plan (bubblewrap on Linux,
 * sandbox-exec on macOS). One call right before spawn (run-command.ts, and process handles),
 * so every way of running a command gets the same sandbox.
 */
import path from 'node:path';
import { LOADER_VARIABLE } from '../../contract/loader-variables.js';
import type { ExecRequest } from '../../contract/processes.js';
import { nativeBuiltFile } from '../../os/native-addon.js';
import { bubblewrapArgs, mountSources } from './bubblewrap.js';
import { guardPlan, type GuardPlan } from './guard-plan.js';
import { seatbeltArgs } from './seatbelt.js';
import type { SandboxPlan } from '../../contract/sandbox.js';

export interface Launch {
  file: string;
  args: string[];
  argv0: string | undefined;
  env: Record<string, string>;
  /** Keep it from abstract Unix sockets made outside (start-child.ts), as the plan says. */
  scopeSockets: boolean;
  /** What to open and hand on as descriptors 3, 4, ... in this order (bind-sources.ts). */
  handOn: HandOn;
  /** bwrap's: which places sit in which folders, for the guard (when there is one) and the cover watch. */
  checks?: GuardPlan;
}

export interface HandOn {
  /** The places bwrap mounts from. */
  sources: string[];
  /** The folders the guard checks the mounts are in. */
  folders: string[];
  /** The guard program (native/sandbox-guard.c), exec'd through its descriptor. */
  guard?: string;
}

const NOTHING: HandOn = { sources: [], folders: [] };

const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'];

/**
 * The loader's variables (contract/loader-variables.ts) reach the program inside only, with
 * `--setenv` (bwrap sets them after it started): in bwrap's own environment one would load code
 * (a library the sandboxed program wrote, named by LD_PRELOAD) on the host before any namespace
 * exists. The rest stay in bwrap's environment, which it passes on: put in its arguments they
 * would be readable by every user (/proc/PID/cmdline), and they hold the gateway's secrets.
 */
export function sandboxed(
  request: Pick<ExecRequest, 'file' | 'args' | 'argv0' | 'env' | 'cwd' | 'sandbox'>,
  guardProgram: string | null = sandboxGuard(),
): Launch {
  const plan = request.sandbox;
  if (!plan) return { file: request.file, args: request.args, argv0: request.argv0, env: request.env, scopeSockets: false, handOn: NOTHING };
  // Neither bwrap 0.8 nor sandbox-exec can set argv[0], which multi-call binaries (busybox)
  // dispatch on: the program is started by the absolute path it was found under, which leads to
  // the same checked file (the policy refused it if that path is one tools or commands can change).
  const command = request.argv0 !== undefined && path.posix.isAbsolute(request.argv0) ? request.argv0 : request.file;
  const env = insideEnvironment(plan, request.env);
  if (plan.mechanism !== 'bubblewrap')
    return {
      file: plan.program,
      args: seatbeltArgs(plan, command, request.args),
      argv0: undefined,
      env,
      scopeSockets: plan.scopeAbstractSockets === true,
      handOn: NOTHING,
    };
  const outside: Record<string, string> = {};
  const setenv: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (LOADER_VARIABLE.test(name)) setenv.push('--setenv', name, value);
    else outside[name] = value;
  }
  const checks = guardPlan(plan);
  const guard = guardProgram === null ? undefined : checks;
  const args = [...setenv, ...bubblewrapArgs(plan, request.cwd, command, request.args, guard)];
  const handOn = { sources: mountSources(plan), folders: guard?.folders ?? [], ...(guardProgram !== null ? { guard: guardProgram } : {}) };
  return { file: plan.program, args, argv0: undefined, env: outside, scopeSockets: plan.scopeAbstractSockets === true, handOn, checks };
}

let guardFile: string | null | undefined;

/** The sandbox guard where the native build made it (Linux), once looked for; null elsewhere. */
export function sandboxGuard(): string | null {
  if (guardFile === undefined) guardFile = (process.platform === 'linux' ? nativeBuiltFile('sandbox-guard') : undefined) ?? null;
  return guardFile;
}

/** The temp folder variables point at the sandbox's temp folder (the server's may not be writable inside). */
function insideEnvironment(plan: SandboxPlan, env: Record<string, string>): Record<string, string> {
  const inside = { ...env };
  for (const name of TEMP_VARIABLES) if (inside[name] !== undefined) inside[name] = plan.tempDir;
  return inside;
}
