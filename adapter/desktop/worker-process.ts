/**
 * The seam for starting the desktop worker. Headless, it is a Node child process
 * (`child_process.fork`); the Electron app passes a spawner built on `utilityProcess.fork`
 * instead (adapter/ never imports electron). A handle is only: send, receive, exit, kill.
 */
import { fork } from 'node:child_process';

export interface WorkerExit {
  code: number | null;
  signal: string | null;
}

export interface WorkerHandle {
  readonly pid: number | undefined;
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the worker is gone, whatever the reason; also when registered after that. */
  onExit(listener: (exit: WorkerExit) => void): void;
  /** Forcefully; the worker holds no state worth a graceful stop. */
  kill(): void;
  /** Node only: keep the parent's event loop alive while calls are in flight, not while idle. */
  setBusy?(busy: boolean): void;
  /** The end of the worker's stderr, to diagnose a crash (for logs and hints, never echoed raw). */
  stderrTail?(): string;
}

export type WorkerSpawner = (modulePath: string, env: NodeJS.ProcessEnv) => WorkerHandle;

const STDERR_TAIL_BYTES = 4096;

/** Keeps the last few KiB a worker wrote to stderr, for the message when it crashes. */
export function stderrTail(stream: NodeJS.ReadableStream | null | undefined): () => string {
  let tail = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_BYTES);
  });
  return () => tail;
}

/** Reports a worker's exit once, to listeners added before or after it happened. */
export function exitLatch(): { finish(exit: WorkerExit): void; onExit(listener: (exit: WorkerExit) => void): void } {
  let exited: WorkerExit | undefined;
  const listeners: Array<(exit: WorkerExit) => void> = [];
  return {
    finish(exit) {
      if (exited) return;
      exited = exit;
      for (const listener of listeners) listener(exit);
    },
    onExit(listener) {
      if (exited) listener(exited);
      else listeners.push(listener);
    },
  };
}

export const forkWorker: WorkerSpawner = (modulePath, env) => {
  const child = fork(modulePath, [], {
    env,
    execArgv: [], // never inherit the parent's loaders, inspector ports or test-runner flags
    serialization: 'advanced', // Buffers cross as bytes, not JSON arrays
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const tail = stderrTail(child.stderr);
  // A failed spawn also emits 'exit' or 'error'; both end in one onExit call.
  const exit = exitLatch();
  child.on('exit', (code, signal) => exit.finish({ code, signal }));
  child.on('error', () => exit.finish({ code: null, signal: null }));

  const refs = (busy: boolean) => {
    for (const target of [child, child.channel, child.stderr] as Array<{ ref?(): unknown; unref?(): unknown } | null | undefined>) {
      if (busy) target?.ref?.();
      else target?.unref?.();
    }
  };
  refs(false);

  return {
    get pid() {
      return child.pid;
    },
    send(message) {
      if (child.connected) child.send(message as never, (error) => error && child.kill('SIGKILL'));
    },
    onMessage(listener) {
      child.on('message', listener);
    },
    onExit: exit.onExit,
    kill() {
      child.kill('SIGKILL');
    },
    setBusy: refs,
    stderrTail: tail,
  };
};
