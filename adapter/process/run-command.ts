/**
 * Runs one executable to completion under hard bounds: no shell, stdin closed, exactly the
 * given environment, output capped per stream, and a timeout (or abort) that ends the whole
 * process tree. A non-zero exit is a normal result; only failing to start is an error. With
 * `promoteAfterMs`, a command still running then is handed to the process registry instead
 * (process-registry.ts): the call returns its handle and the output so far, and the command
 * goes on there like a process.start one (its deadline only with `keepTimeout`).
 *
 * Lifetime rule: nothing a command started outlives the call, unless it moved to a handle (then
 * the registry ends it the same way). On POSIX the command leads its
 * own process group; when the main process has exited (or was killed) whatever is left in the
 * group is terminated too, and pipes still held open by an escaped descendant are destroyed.
 * Windows has no process groups: a timeout kills the tree with taskkill /T while the root is
 * alive; descendants left behind by a main process that exited normally are not tracked.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { adapterError, type ErrorCode } from '../contract/errors.js';
import { BoundedOutput } from './bounded-output.js';
import { signalGroup, taskkillTree, terminateGroup } from './kill-tree.js';
import type { ExecRequest, ExecResult } from '../contract/processes.js';
import { closeMountSources, openHandOn } from './sandbox/bind-sources.js';
import { startMarked } from './sandbox/start-mark.js';
import { coverLost, coverLostNote, watchCovers } from './sandbox/cover-watch.js';
import { guardRefusal } from './sandbox/guard-plan.js';
import { sandboxed } from './sandbox/launch.js';
import { startChild, type CommandChild } from './start-child.js';

const OPERATION = 'runCommand';
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Bounds the wait for the exit event once the tree was killed (a process stuck in the kernel). */
const EXIT_AFTER_KILL_MS = 2000;

export interface RunOptions {
  platform?: NodeJS.Platform;
  /** Between SIGTERM and SIGKILL to the process group. */
  killGraceMs?: number;
  /** After the main process ended, how long its pipes may stay open before leftovers are ended. */
  lingerMs?: number;
  /** Where a command still running at `promoteAfterMs` goes on. */
  registry?: HandleAdopter;
}

/** The process registry as run-command sees it (it imports launch from here, so not its class). */
export interface HandleAdopter {
  /** Takes over a running command under a new handle, or returns null when no handle is free. */
  adopt(launched: Launched, request: ExecRequest, soFar: { stdout: Buffer; stderr: Buffer }): string | null;
}

const DEFAULT_KILL_GRACE_MS = 2000;
const DEFAULT_LINGER_MS = 200;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A started child: its exit and the end of its output, as promises. */
export interface Launched {
  child: CommandChild;
  pid: number;
  exited: Promise<Exit>;
  closed: Promise<true>;
  /** performance.now() at spawn. */
  started: number;
  /** The sandbox guard starts the command (guard-plan.ts); it may refuse to. */
  guarded: boolean;
  /** Once it exited: false when bwrap failed before the guard ran (nothing ran); true otherwise, and without a guard. */
  setUp(): boolean;
  /** The covered place whose cover came off while it ran (cover-watch.ts), for which it was stopped; null while none did. */
  coverLost(): string | null;
}

/** Spawns exactly the planned program: no shell, the given environment, its own process group on POSIX. */
export async function launch(request: ExecRequest, platform: NodeJS.Platform, stdin: 'ignore' | 'pipe'): Promise<Launched> {
  validate(request, platform);
  if (request.signal?.aborted) {
    throw adapterError('PRECONDITION_FAILED', OPERATION, 'the request was cancelled before the command started');
  }
  const started = performance.now();
  let child: CommandChild;
  // Inside the OS sandbox when the plan has one (bwrap / sandbox-exec wrap the program).
  const command = sandboxed(request);
  // Opened here, as late as can be; a place changed since the plan refuses the command.
  const handOn = openHandOn(command.handOn);
  // The guard's start mark (start-mark.ts) stays open past the start, and is read once bwrap exited.
  let mark = handOn.mark;
  let setUp = true;
  const readMark = () => {
    if (mark !== null) setUp = startMarked(mark);
    mark = null;
  };
  // Watched from before the start, so the empty places bwrap makes are seen made, not replaced.
  let lost: string | null = null;
  const spawnedAs = { pid: undefined as number | undefined };
  const unwatch =
    request.sandbox && command.checks
      ? watchCovers(request.sandbox, command.checks, (place) => {
          lost = place;
          // A cover the kernel took off inside: the whole sandbox ends (bwrap leads the group).
          if (spawnedAs.pid !== undefined) signalGroup(spawnedAs.pid, 'SIGKILL');
        })
      : () => {};
  try {
    child = startChild(command.file, command.args, {
      argv0: command.argv0,
      cwd: request.cwd,
      env: command.env,
      stdin,
      platform,
      scopeSockets: command.scopeSockets,
      handOn: handOn.fds,
    });
  } catch (error) {
    unwatch();
    readMark();
    throw await spawnFailure(error, request, platform);
  } finally {
    closeMountSources(handOn.mounts);
  }
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const closed = new Promise<true>((resolve) => child.once('close', () => resolve(true)));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  child.stdout.on('error', () => {});
  child.stderr.on('error', () => {});
  child.stdin?.on('error', () => {});
  void exited.then(() => {
    unwatch();
    readMark();
  });
  try {
    await spawned;
  } catch (error) {
    unwatch();
    readMark();
    throw await spawnFailure(error, request, platform);
  }
  const pid = (spawnedAs.pid = child.pid as number);
  if (lost !== null) signalGroup(pid, 'SIGKILL');
  return { child, pid, exited, closed, started, guarded: command.handOn.guard !== undefined, setUp: () => setUp, coverLost: () => lost };
}

export async function runCommand(request: ExecRequest, options: RunOptions = {}): Promise<ExecResult> {
  const platform = options.platform ?? process.platform;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
  const posix = platform !== 'win32';
  const launched = await launch(request, platform, 'ignore');
  const { child, pid, exited, closed, started } = launched;
  const stdout = new BoundedOutput(request.maxOutputBytes, request.keepOutput);
  const stderr = new BoundedOutput(request.maxOutputBytes, request.keepOutput);
  const onOut = (chunk: Buffer) => stdout.push(chunk);
  const onErr = (chunk: Buffer) => stderr.push(chunk);
  child.stdout.on('data', onOut);
  child.stderr.on('data', onErr);

  const promotable = request.promoteAfterMs !== undefined && request.promoteAfterMs <= request.timeoutMs ? options.registry : undefined;
  let handlesFull = false;
  let stop = stopTrigger(promotable ? request.promoteAfterMs! : request.timeoutMs, request.signal);
  let first = await Promise.race([exited, stop.reason]);
  stop.cancel();
  if (first === 'timeout' && promotable) {
    // Still running at promoteAfterMs: it goes on under a handle, if the registry has room.
    child.stdout.off('data', onOut);
    child.stderr.off('data', onErr);
    const handle = promotable.adopt(launched, request, { stdout: stdout.bytesSoFar(), stderr: stderr.bytesSoFar() });
    if (handle) return promotedResult(handle, stdout, stderr, started);
    // Every handle holds a running process: wait for it here until timeoutMs, as without promotion.
    handlesFull = true;
    child.stdout.on('data', onOut);
    child.stderr.on('data', onErr);
    stop = stopTrigger(Math.max(1, request.timeoutMs - Math.round(performance.now() - started)), request.signal);
    first = await Promise.race([exited, stop.reason]);
    stop.cancel();
  }

  let exit: Exit | undefined;
  let timedOut = false;
  if (first === 'timeout' || first === 'abort') {
    timedOut = first === 'timeout';
    if (posix) await terminateGroup(pid, killGraceMs, platform);
    else if (!(await taskkillTree(pid))) child.kill('SIGKILL');
    exit = orUndefined(await within(exited, EXIT_AFTER_KILL_MS));
  } else {
    exit = first;
  }

  // Output still in the pipes arrives before EOF; a descendant holding them must not hold the call.
  let eof = (await within(closed, lingerMs)) === true;
  if (posix && (await terminateGroup(pid, killGraceMs, platform)) && !eof) {
    eof = (await within(closed, lingerMs)) === true;
  }
  if (!eof) {
    child.stdout.destroy();
    child.stderr.destroy();
  }
  if (exit === undefined) child.unref();

  const out = stdout.result();
  const err = stderr.result();
  const unstarted = sandboxUnstarted(launched, exit?.code ?? null, err.text, OPERATION);
  if (unstarted) throw unstarted;
  const lost = launched.coverLost();
  return {
    exitCode: exit?.code ?? null,
    signal: exit?.signal ?? null,
    stdout: out.text,
    stderr: lost === null ? err.text : err.text + coverLostNote(lost),
    durationMs: Math.round(performance.now() - started),
    timedOut,
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    ...(out.binary ? { stdoutBinary: out.binary } : {}),
    ...(err.binary ? { stderrBinary: err.binary } : {}),
    ...(handlesFull ? { handlesFull } : {}),
    ...(lost === null ? {} : { sandboxStopped: coverLost(lost) }),
  };
}

/** The refusal for a sandbox whose guard refused to start the program, or whose bwrap failed before the guard ran: nothing ran either way. */
export function sandboxUnstarted(launched: Launched, code: number | null, stderr: string, operation: string): Error | undefined {
  const refused = launched.guarded ? guardRefusal(code, stderr) : undefined;
  if (refused !== undefined)
    return adapterError('PRECONDITION_FAILED', operation, `the sandbox was not started: ${refused}, and running it again plans the sandbox anew`);
  if (launched.setUp() || code === null || code === 0) return undefined;
  const said = stderr.split('\n', 1)[0]!.trim();
  return adapterError(
    'PRECONDITION_FAILED',
    operation,
    `the sandbox was not set up${said ? ` (${said})` : ''}: most likely a place it mounts was moved or removed while the command was starting (by another program); nothing ran, and running it again plans the sandbox anew`,
  );
}

function promotedResult(handle: string, stdout: BoundedOutput, stderr: BoundedOutput, started: number): ExecResult {
  const out = stdout.result();
  const err = stderr.result();
  return {
    exitCode: null,
    signal: null,
    stdout: out.text,
    stderr: err.text,
    durationMs: Math.round(performance.now() - started),
    timedOut: false,
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    ...(out.binary ? { stdoutBinary: out.binary } : {}),
    ...(err.binary ? { stderrBinary: err.binary } : {}),
    processHandle: handle,
  };
}

function validate(request: ExecRequest, platform: NodeJS.Platform): void {
  const p = platform === 'win32' ? path.win32 : path.posix;
  // An absolute path also keeps spawn from doing its own PATH lookup.
  if (typeof request.file !== 'string' || !p.isAbsolute(request.file)) {
    throw adapterError('INVALID_INPUT', OPERATION, `the executable must be an absolute path, got ${JSON.stringify(request.file)}`);
  }
  if (request.argv0 !== undefined && (typeof request.argv0 !== 'string' || request.argv0 === '')) {
    throw adapterError('INVALID_INPUT', OPERATION, 'argv0 must be a non-empty string when given');
  }
  if (!Array.isArray(request.args) || request.args.some((arg) => typeof arg !== 'string')) {
    throw adapterError('INVALID_INPUT', OPERATION, 'args must be an array of strings');
  }
  if (!Number.isInteger(request.timeoutMs) || request.timeoutMs < 1 || request.timeoutMs > MAX_TIMER_MS) {
    throw adapterError('INVALID_INPUT', OPERATION, `timeoutMs must be an integer from 1 to ${MAX_TIMER_MS}, got ${String(request.timeoutMs)}`);
  }
  if (!Number.isSafeInteger(request.maxOutputBytes) || request.maxOutputBytes < 0) {
    throw adapterError('INVALID_INPUT', OPERATION, `maxOutputBytes must be a non-negative integer, got ${String(request.maxOutputBytes)}`);
  }
}

function stopTrigger(timeoutMs: number, signal: AbortSignal | undefined): { reason: Promise<'timeout' | 'abort'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const reason = new Promise<'timeout' | 'abort'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    if (!signal) return;
    onAbort = () => resolve('abort');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    reason,
    cancel() {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    },
  };
}

const LATE = Symbol('late');

/** The promise's value, or LATE when it did not settle within `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function orUndefined<T>(value: T | typeof LATE): T | undefined {
  return value === LATE ? undefined : value;
}

/** Turns a failure to start into a precise adapter error (the child never ran). */
async function spawnFailure(error: unknown, request: ExecRequest, platform: NodeJS.Platform): Promise<Error> {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? 'UNKNOWN';
  const { file, cwd } = request;
  const fail = (kind: ErrorCode, why: string) => adapterError(kind, OPERATION, `cannot start ${file}: ${why}`, { file, code });
  switch (code) {
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
      return fail('INVALID_INPUT', 'the path, arguments, working directory and environment must be strings without NUL bytes');
    case 'ENOENT':
    case 'ENOTDIR':
      if (cwd !== undefined && !(await isDirectory(cwd))) return fail('NOT_FOUND', `the working directory ${cwd} does not exist or is not a directory`);
      if (await exists(file)) return fail('NOT_FOUND', `it exists, but its #! interpreter or dynamic loader was not found (${code})`);
      return fail('NOT_FOUND', `no such file (${code})`);
    case 'EACCES':
      return fail(
        'OS_ERROR',
        'permission denied (EACCES): it must be a regular file with execute permission for this user, in an accessible working directory',
      );
    case 'ENOEXEC':
      return fail('OS_ERROR', 'it is not a program for this system and has no #! line (ENOEXEC)');
    case 'EINVAL':
      if (platform === 'win32' && /\.(bat|cmd)$/i.test(file)) {
        return fail('OS_ERROR', 'Windows batch files (.bat, .cmd) need cmd.exe, and commands run without a shell; run an .exe instead');
      }
      return fail('OS_ERROR', 'the OS rejected the request (EINVAL)');
    case 'E2BIG':
      return fail('INVALID_INPUT', 'the arguments and environment are too large for the OS (E2BIG)');
    case 'EAGAIN':
    case 'EMFILE':
    case 'ENFILE':
    case 'ENOMEM':
      return fail('OS_ERROR', `the system is out of processes, memory or file descriptors (${code})`);
    default:
      return fail('OS_ERROR', `the OS refused (${code})`);
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
