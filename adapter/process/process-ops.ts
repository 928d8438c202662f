/**
 * The OS process operations behind the ComputerAdapter seam: bounded command execution,
 * executable lookup, process listing and signalling. One real implementation per OS
 * (linux, darwin, win32), chosen at runtime by `createProcessOps`.
 */
import { findExecutable, type FoundExecutable } from './find-executable.js';
import { listProcesses } from './list.js';
import type { BinaryOutput } from './output-text.js';
import { ProcessRegistry, type HandleOutput, type HandleStatus } from './process-registry.js';
import { runCommand } from './run-command.js';
import { killProcess } from './signals.js';
import type { SandboxPlan } from './sandbox/sandbox-plan.js';

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
}

export interface ProcessOps {
  runCommand(request: ExecRequest): Promise<ExecResult>;
  /** Starts a process that outlives the call, with stdin open; it is reached through the returned handle. */
  startProcess(request: ExecRequest & { handles: HandleLimits }): Promise<HandleStatus>;
  /** Output after the given offsets, waiting up to waitMs for more (or for the exit). */
  readProcessOutput(
    handle: string,
    options: { stdoutOffset: number; stderrOffset: number; waitMs: number; maxBytes: number; signal?: AbortSignal },
  ): Promise<HandleOutput>;
  writeProcessInput(handle: string, data: string, close: boolean): Promise<{ bytesWritten: number; stdinOpen: boolean }>;
  /** Ends the whole tree (SIGTERM, then SIGKILL after the grace period, or at once with force). */
  stopProcess(handle: string, options: { force: boolean }): Promise<HandleStatus>;
  processStatus(handle: string): HandleStatus;
  /** Ends every handle's process (server shutdown). */
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

export function createProcessOps(platform: NodeJS.Platform = process.platform): ProcessOps {
  const registry = new ProcessRegistry(platform);
  return {
    runCommand: (request) => runCommand(request, { platform, registry }),
    startProcess: (request) => registry.start(request),
    readProcessOutput: (handle, options) => registry.read(handle, options),
    writeProcessInput: (handle, data, close) => registry.write(handle, data, close),
    stopProcess: (handle, options) => registry.stop(handle, options),
    processStatus: (handle) => registry.status(handle),
    closeProcesses: () => registry.closeAll(),
    findExecutable: (name, searchPath, cwd) => findExecutable(name, searchPath, cwd, platform),
    listProcesses: () => listProcesses(platform),
    killProcess: (pid, signal) => killProcess(pid, signal, platform),
  };
}
