/**
 * The OS process operations behind the ComputerAdapter seam: bounded command execution,
 * long-running processes behind handles, executable lookup, process listing and signalling.
 *
 * For an adapter author: run exactly the request (the policy resolved the executable, built the
 * whole environment and, with `sandbox`, the sandbox plan); never use a shell or search PATH
 * yourself; keep every bound (timeoutMs, maxOutputBytes, the handle limits, the signal), and
 * end the whole process tree on a timeout, an abort or a stop.
 */
import type { SandboxPlan } from './sandbox.js';

/** The signals killProcess takes on POSIX systems (Windows takes SIGTERM, SIGKILL and SIGINT). */
export const POSIX_SIGNALS = ['SIGTERM', 'SIGKILL', 'SIGINT', 'SIGHUP', 'SIGSTOP', 'SIGCONT', 'SIGUSR1', 'SIGUSR2', 'SIGQUIT'] as const;

export type KillSignal = (typeof POSIX_SIGNALS)[number];

export interface ExecRequest {
  /** Absolute path of the executable (already resolved and allowed by policy). Never searched on PATH. */
  file: string;
  args: string[];
  /**
   * argv[0] as the program sees it (default: `file`). Pass the name the command was found by
   * when `file` is a realpath: multi-call binaries (busybox, toybox) dispatch on argv[0].
   */
  argv0?: string;
  /** Already validated by policy. */
  cwd?: string;
  /** The COMPLETE child environment (policy built it); nothing is inherited. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Per stream, in bytes of UTF-8. */
  maxOutputBytes: number;
  /** Which bytes a stream past maxOutputBytes keeps: the first (default) or the last (a test run's summary). */
  keepOutput?: 'head' | 'tail';
  /** Client went away: the tree is killed like on a timeout (timedOut stays false). */
  signal?: AbortSignal;
  /** Run inside this sandbox (main/policy/sandbox.ts decided it); without it, with the server user's full rights. */
  sandbox?: SandboxPlan;
  /**
   * Still running after this long (at most timeoutMs): hand the command to the process registry
   * and return its handle with the output so far. Under the handle it then lives like a
   * process.start one (until it exits, is stopped or idles out), unless `keepTimeout`.
   */
  promoteAfterMs?: number;
  /** The caller's own hard timeout: timeoutMs still ends the command after it moved to a handle. */
  keepTimeout?: boolean;
  /** Bounds of the handle a promoted (or started) process gets. */
  handles?: HandleLimits;
}

export interface HandleLimits {
  /** Handles kept at once, running or exited. */
  maxHandles: number;
  /** Bytes kept per stream (the ring's size). */
  ringBytes: number;
  /** A handle nobody asked about for this long is ended and forgotten. */
  idleMs: number;
}

export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Output that is not text: its size and a preview, instead of an escaped string. */
  stdoutBinary?: BinaryOutput;
  stderrBinary?: BinaryOutput;
  /** Set when the command was still running at promoteAfterMs and goes on under this handle. */
  processHandle?: string;
  /** Set when the command outlived promoteAfterMs but every handle held a running process, so the call kept waiting. */
  handlesFull?: boolean;
  /** Set when the sandbox stopped the command: why (a read-only cover replaced outside while it ran, cover-watch.ts). */
  sandboxStopped?: string;
}

/** Output that is not text: its size and a preview, instead of an escaped string. */
export interface BinaryOutput {
  bytes: number;
  /** The first bytes, base64. */
  previewBase64: string;
}

/** What findExecutable answers: where a command name leads. */
export interface FoundExecutable {
  /** Where it was found on the PATH (or the path given). */
  found: string;
  /** Its real path. */
  real: string;
  /**
   * Every symlink followed from `found` to `real`, by where the link itself lies: the file's own
   * chain and links among the folders on the way. Whoever can rewrite one of them picks the
   * program the name runs.
   */
  links?: readonly string[];
}

export type HandleState = 'running' | 'exited';

export interface HandleStatus {
  processHandle: string;
  pid: number;
  state: HandleState;
  exitCode: number | null;
  signal: string | null;
  /** Ended by its deadline (the timeoutMs a shell.exec caller set and that outlived the promotion). */
  timedOut: boolean;
  /** Set when the sandbox stopped it: why (ExecResult.sandboxStopped). */
  sandboxStopped?: string;
  startedAt: string;
  durationMs: number;
  stdoutBytes: number;
  stderrBytes: number;
  stdinOpen: boolean;
}

export interface StreamChunk {
  /** Text from `offset` (UTF-8, cut on character boundaries); empty when binary. */
  text: string;
  binary?: BinaryOutput & { base64: string };
  /** Where this chunk starts (later than asked when older bytes were overwritten). */
  offset: number;
  /** The offset to ask for next. */
  nextOffset: number;
  /** Bytes overwritten before they were read. */
  droppedBytes: number;
}

export interface HandleOutput extends HandleStatus {
  stdout: StreamChunk;
  stderr: StreamChunk;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Effective user name; a numeric uid when it has no name; '' on Windows (not available cheaply). */
  user: string;
  /** Effective uid, where the listing has it (Linux). */
  uid?: number;
  /** Executable name (basename), e.g. `node`, `Google Chrome`, `chrome.exe`. */
  command: string;
  /** Exact argv on Linux; reconstructed from one command-line string on macOS and Windows. */
  args: string[];
  /** A kernel thread (Linux): no program behind it, never signalled. */
  kernel?: boolean;
}

/** How long process.write waits in all for a process to read its input. */
export const PROCESS_WRITE_WAIT_MS = 5000;

export interface ProcessWrite {
  bytesWritten: number;
  stdinOpen: boolean;
  /** Set when the process stopped reading before all of `data` went in: how much of it (in UTF-16 units, as the caller sent it) did. */
  charsWritten?: number;
  /** Bytes of `data` not written (close, when asked, is not done either). */
  bytesLeft?: number;
}

/**
 * A long-lived program the server talks a protocol with over its stdin and stdout (an MCP
 * server of the owner's, see main/gateway/). Like a command: exactly this file, arguments and
 * environment, no shell, inside `sandbox` when given; only stdin, stdout and stderr are open.
 */
export interface PeerRequest {
  file: string;
  args: string[];
  cwd?: string;
  /** The COMPLETE environment (policy built it); nothing is inherited. */
  env: Record<string, string>;
  sandbox?: SandboxPlan;
}

export interface PeerExit {
  code: number | null;
  signal: string | null;
}

export interface PeerProcess {
  readonly pid: number;
  /** Queues bytes for its stdin; false when the pipe is full (wait for `onDrain`) or closed. */
  write(data: string): boolean;
  onDrain(listener: () => void): void;
  onStdout(listener: (chunk: Uint8Array) => void): void;
  onStderr(listener: (chunk: Uint8Array) => void): void;
  /** Settles once the program exited (not only its stdio closing). */
  readonly exited: Promise<PeerExit>;
  /** Ends it and everything it started: stdin closed, then SIGTERM to the group, SIGKILL after graceMs. */
  stop(graceMs: number): Promise<void>;
}

export interface ProcessOps {
  runCommand(request: ExecRequest): Promise<ExecResult>;
  /** Starts a protocol peer with piped stdio; it lives until it exits, `stop`, or closeProcesses. */
  startPeer(request: PeerRequest): Promise<PeerProcess>;
  /** Starts a process that outlives the call, with stdin open; it is reached through the returned handle. */
  startProcess(request: ExecRequest & { handles: HandleLimits }): Promise<HandleStatus>;
  /** Output after the given offsets, waiting up to waitMs for more (or for the exit). */
  readProcessOutput(
    handle: string,
    options: { stdoutOffset: number; stderrOffset: number; waitMs: number; maxBytes: number; signal?: AbortSignal },
  ): Promise<HandleOutput>;
  /** Bounded in time: a process that does not read its input gets what fits, and the answer says what was left. */
  writeProcessInput(handle: string, data: string, close: boolean): Promise<ProcessWrite>;
  /** Ends the whole tree (SIGTERM, then SIGKILL after the grace period, or at once with force). */
  stopProcess(handle: string, options: { force: boolean }): Promise<HandleStatus>;
  processStatus(handle: string): HandleStatus;
  /** Ends every handle's process and every peer (server shutdown). */
  closeProcesses(): Promise<void>;
  /**
   * which(1): the absolute path `name` resolves to on `searchPath` (PATH string; on Windows
   * honour PATHEXT), or null. An absolute or relative-with-separator name is returned resolved
   * if it is an executable file. `real` is the realpath (symlinks followed), `found` the path
   * found on PATH.
   */
  findExecutable(name: string, searchPath: string | undefined, cwd?: string): Promise<FoundExecutable | null>;
  listProcesses(): Promise<ProcessInfo[]>;
  /**
   * Validates the signal name (SIGTERM, SIGKILL, SIGINT, SIGHUP, SIGSTOP, SIGCONT, SIGUSR1,
   * SIGUSR2, SIGQUIT; on Windows only SIGTERM/SIGKILL/SIGINT, which all terminate forcefully),
   * sends it; NOT_FOUND when no such pid, OS_ERROR with EPERM explained when not permitted.
   */
  killProcess(pid: number, signal: string): Promise<void>;
}
