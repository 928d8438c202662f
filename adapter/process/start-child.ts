/**
 * Starts a command's process. On Linux through the posix_spawn addon (native/posix-spawn.c),
 * which does not copy the server's page tables the way libuv's fork() does: a short command
 * costs about a quarter of the time it did. Elsewhere, where the addon was not built, or where
 * the kernel gives no pidfds, through child_process.spawn with the same options. Either way
 * the command gets exactly its argv, argv[0] and environment, no shell, stdin from /dev/null
 * or a pipe, stdout and stderr captured (pipes from the addon, socket pairs from libuv), and on
 * POSIX a session of its own. A child ends with the server, even one killed by SIGKILL: the
 * addon asks the kernel (PR_SET_PDEATHSIG) for the child itself, and on every POSIX system one
 * watcher per server (lifeline.ts) kills the child's process group.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { loadNativeAddon } from '../os/native-addon.js';
import { holdLifeline } from './lifeline.js';

/** The part of a ChildProcess the runner and the registry use; both ways of starting give it. */
export interface CommandChild {
  readonly pid: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable;
  readonly stderr: Readable;
  kill(signal?: NodeJS.Signals): boolean;
  unref(): void;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'close' | 'spawn', listener: () => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
}

export interface StartOptions {
  argv0: string | undefined;
  cwd: string | undefined;
  env: Record<string, string>;
  stdin: 'ignore' | 'pipe';
  platform: NodeJS.Platform;
  /** Confine the child to its own abstract Unix sockets (Landlock's scope; only where abstractSocketScope() says it can). */
  scopeSockets?: boolean;
  /** Descriptors the child gets as 3, 4, ... in order (the places its sandbox mounts); the caller still closes its own. */
  handOn?: readonly number[];
}

interface Addon {
  spawn(
    file: string,
    argv: string[],
    env: string[],
    cwd: string | null,
    pipeStdin: boolean,
    onExit: (code: number | null, signal: number | null) => void,
    scopeSockets: boolean,
    handOn: readonly number[],
  ): [pid: number, stdin: number, stdout: number, stderr: number, watch: unknown];
  ref(watch: unknown, yes: boolean): void;
  landlockAbi(): number;
  usable(): boolean;
}

let addon: Addon | null | undefined;

/** The addon, when this is Linux, it was built (build/native.mjs) and the kernel gives pidfds. */
export function nativeSpawner(): Addon | null {
  if (addon === undefined) {
    const loaded = loadNativeAddon<Addon>('posix-spawn');
    addon = loaded?.usable() ? loaded : null;
  }
  return addon;
}

/**
 * Whether a child can be kept from abstract Unix sockets made outside it: the addon is here and
 * the kernel has Landlock ABI 6 (Linux 6.12). Without it, a sandbox sharing the network reaches
 * them (docs/SECURITY.md).
 */
export function abstractSocketScope(native = nativeSpawner()): boolean {
  return native !== null && native.landlockAbi() >= 6;
}

/** Starts the program; throws the OS's error (with its code) when it cannot start. */
export function startChild(file: string, args: string[], options: StartOptions, native = nativeSpawner()): CommandChild {
  if (native && options.platform === 'linux') {
    const child = new NativeChild(native, file, args, options);
    holdLifeline(child, options.platform);
    return child;
  }
  const child = spawn(file, args, {
    argv0: options.argv0,
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin, 'pipe', 'pipe', ...(options.handOn ?? [])],
    shell: false,
    windowsHide: true,
    // POSIX: setsid(), so the command leads a new process group that can be signalled as one.
    // Windows: not detached, so libuv keeps the child in its kill-on-close job: it ends with the server.
    detached: options.platform !== 'win32',
  });
  holdLifeline(child, options.platform);
  return child as CommandChild;
}

/** Number to name, the first name listed winning: SIGABRT not SIGIOT, EAGAIN not EWOULDBLOCK, as Node names them. */
function names<T extends string>(table: Record<string, number>): Map<number, T> {
  const map = new Map<number, T>();
  for (const [name, number] of Object.entries(table)) if (!map.has(number)) map.set(number, name as T);
  return map;
}
const SIGNAL_NAMES = names<NodeJS.Signals>(os.constants.signals);
const ERRNO_NAMES = names<string>(os.constants.errno);

/** The addon's errors carry the errno; give them its name as `code`, as Node's own errors have. */
function named(error: unknown): unknown {
  const errno = (error as NodeJS.ErrnoException | null)?.errno;
  if (typeof errno === 'number' && !(error as NodeJS.ErrnoException).code) {
    (error as NodeJS.ErrnoException).code = ERRNO_NAMES.get(errno) ?? `errno ${errno}`;
  }
  return error;
}

/** A process started by the addon, with ChildProcess's events: spawn, exit, then close once stdout and stderr closed. */
class NativeChild extends EventEmitter implements CommandChild {
  readonly pid: number;
  readonly stdin: Writable | null;
  readonly stdout: Readable;
  readonly stderr: Readable;
  private readonly watch: unknown;
  private exit: [code: number | null, signal: NodeJS.Signals | null] | null = null;
  private openStreams = 2;

  constructor(
    private readonly addon: Addon,
    file: string,
    args: string[],
    options: StartOptions,
  ) {
    super();
    const env = Object.entries(options.env).map(([name, value]) => `${name}=${value}`);
    const argv = [options.argv0 ?? file, ...args];
    const onExit = (code: number | null, signal: number | null) => {
      try {
        this.onExit(code, signal === null ? null : (SIGNAL_NAMES.get(signal) ?? null));
      } catch (error) {
        // A listener threw: report it as Node would from ChildProcess, outside the addon's
        // callback (inside it, even a next-tick exception would come back to the addon).
        setImmediate(() => {
          throw error;
        });
      }
    };
    let started: ReturnType<Addon['spawn']>;
    try {
      started = addon.spawn(file, argv, env, options.cwd ?? null, options.stdin === 'pipe', onExit, options.scopeSockets === true, options.handOn ?? []);
    } catch (error) {
      throw named(error);
    }
    const [pid, stdin, stdout, stderr, watch] = started;
    this.pid = pid;
    this.watch = watch;
    this.stdin = stdin < 0 ? null : new net.Socket({ fd: stdin, readable: false, writable: true });
    this.stdout = this.output(stdout);
    this.stderr = this.output(stderr);
    process.nextTick(() => this.emit('spawn'));
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exit) return false; // its pid may belong to another process by now
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  unref(): void {
    if (!this.exit) this.addon.ref(this.watch, false);
  }

  private output(fd: number): Readable {
    const stream = new net.Socket({ fd, readable: true, writable: false });
    stream.once('close', () => {
      this.openStreams--;
      this.closeIfDone();
    });
    return stream;
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = [code, signal];
    this.emit('exit', code, signal);
    this.closeIfDone();
  }

  private closeIfDone(): void {
    if (this.exit && this.openStreams === 0) this.emit('close', ...this.exit);
  }
}
