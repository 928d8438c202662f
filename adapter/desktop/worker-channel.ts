/**
 * The desktop worker as the server process talks to it: started on first use and kept warm,
 * one call per id with its own timeout. A worker crash or hang fails the calls in flight with
 * OS_ERROR / TIMEOUT, never the server, and the next call starts a fresh worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapterError } from '../contract/errors.js';
import { findUp } from '../os/find-up.js';
import { fromWireError, isOwnerWait, isWorkerResponse, type DesktopOp, type WorkerOps, type WorkerRequest } from './worker-protocol.js';
import type { WorkerExit, WorkerHandle, WorkerSpawner } from './worker-process.js';

export type Args<K extends DesktopOp> = Parameters<WorkerOps[K]>;
export type Result<K extends DesktopOp> = Awaited<ReturnType<WorkerOps[K]>>;

interface Pending {
  operation: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** Arms the timeout anew, `ms` from now. */
  rearm(ms: number): NodeJS.Timeout;
}

interface Worker {
  handle: WorkerHandle;
  pending: Map<number, Pending>;
  /** Why we stopped it, when we did (a timeout, close()). */
  stopReason?: string;
  /** Waiting for the calls in flight to end (an in-process pointer call, next in order). */
  drained: Array<() => void>;
}

export interface WorkerChannelOptions {
  /** The worker's environment (its display). */
  env: NodeJS.ProcessEnv;
  spawn: WorkerSpawner;
  /** The compiled worker module; defaults to defaultWorkerPath(). */
  workerPath: string | undefined;
}

export class WorkerChannel {
  private worker: Worker | undefined;
  private nextId = 1;

  constructor(private readonly options: WorkerChannelOptions) {}

  /** The running worker's pid (diagnostics and tests). */
  get pid(): number | undefined {
    return this.worker?.handle.pid;
  }

  /** Calls sent to the worker and not answered yet (diagnostics and tests). */
  get callsInFlight(): number {
    return this.worker?.pending.size ?? 0;
  }

  /** Sends one call, starting a worker if none runs; a call that outlives `timeoutMs` stops the worker. */
  send<K extends DesktopOp>(op: K, args: Args<K>, timeoutMs: number, operation: string): Promise<Result<K>> {
    let worker: Worker;
    try {
      worker = this.ensureWorker(operation);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const expire = (waitedMs: number) => () => {
        worker.pending.delete(id);
        reject(
          adapterError(
            'TIMEOUT',
            operation,
            `${operation} did not finish within ${waitedMs} ms; the desktop worker was stopped and the next call starts a new one`,
          ),
        );
        this.stop(worker, `an earlier ${operation} call timed out`);
      };
      const timer = setTimeout(expire(timeoutMs), timeoutMs);
      const rearm = (ms: number) => setTimeout(expire(Date.now() - started + ms), ms);
      worker.pending.set(id, { operation, resolve: resolve as (value: unknown) => void, reject, timer, rearm });
      worker.handle.setBusy?.(true);
      const request: WorkerRequest = { id, op, args: args as unknown[] };
      try {
        worker.handle.send(request);
      } catch {
        // the worker is going away; its exit fails this call with the reason
        this.stop(worker, 'the desktop worker stopped accepting calls');
      }
    });
  }

  /** Resolves when the worker has no call in flight. */
  drained(): Promise<void> {
    const worker = this.worker;
    if (!worker || worker.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => worker.drained.push(resolve));
  }

  /** Stops the worker; calls in flight fail. The next call would start a new one. */
  async close(reason: string): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await new Promise<void>((resolve) => {
      worker.handle.setBusy?.(true); // keep the event loop alive until the exit arrives
      worker.handle.onExit(() => resolve());
      this.stop(worker, reason);
    });
  }

  private ensureWorker(operation: string): Worker {
    if (this.worker) return this.worker;
    const modulePath = this.options.workerPath ?? defaultWorkerPath();
    if (!fs.existsSync(modulePath)) {
      throw adapterError('OS_ERROR', operation, `the desktop worker is missing (${modulePath}); build the project with "npm run build"`);
    }
    let handle: WorkerHandle;
    try {
      handle = this.options.spawn(modulePath, this.options.env);
    } catch (error) {
      throw adapterError('OS_ERROR', operation, `could not start the desktop worker: ${(error as Error).message ?? 'unknown error'}`);
    }
    const worker: Worker = { handle, pending: new Map(), drained: [] };
    handle.onMessage((message) => this.settle(worker, message));
    handle.onExit((exit) => this.exited(worker, exit));
    this.worker = worker;
    return worker;
  }

  private settle(worker: Worker, message: unknown): void {
    if (isOwnerWait(message)) {
      // the owner is being asked: every call in flight may wait for the answer
      for (const pending of worker.pending.values()) {
        clearTimeout(pending.timer);
        pending.timer = pending.rearm(message.ownerWaitMs);
      }
      return;
    }
    if (!isWorkerResponse(message)) return;
    const pending = worker.pending.get(message.id);
    if (!pending) return; // already timed out
    worker.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (worker.pending.size === 0) {
      worker.handle.setBusy?.(false);
      for (const resolve of worker.drained.splice(0)) resolve();
    }
    if (message.ok) pending.resolve(message.result);
    else pending.reject(fromWireError(message.error, pending.operation));
  }

  private stop(worker: Worker, reason: string): void {
    worker.stopReason ??= reason;
    if (this.worker === worker) this.worker = undefined;
    worker.handle.kill();
  }

  private exited(worker: Worker, exit: WorkerExit): void {
    if (this.worker === worker) this.worker = undefined;
    worker.handle.setBusy?.(false);
    for (const pending of worker.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(adapterError('OS_ERROR', pending.operation, crashMessage(pending.operation, exit, worker), { exitCode: exit.code, signal: exit.signal }));
    }
    worker.pending.clear();
    for (const resolve of worker.drained.splice(0)) resolve();
  }
}

function crashMessage(operation: string, exit: WorkerExit, worker: Worker): string {
  if (worker.stopReason) return `${operation} was interrupted: the desktop worker was stopped because ${worker.stopReason}; try again`;
  const how = exit.signal ? `signal ${exit.signal}` : exit.code === null ? 'it could not start' : `exit code ${exit.code}`;
  const base = `the desktop worker stopped unexpectedly (${how}) during ${operation}; this call failed and the next call starts a new worker`;
  const stderr = worker.handle.stderrTail?.() ?? '';
  // Xlib's default handler exits the process on a protocol error; XTest refuses a key with no keycode in the keymap.
  if (/X Error of failed request:\s+BadValue[\s\S]*X_XTestFakeInput/.test(stderr)) {
    return `${base}. The X server refused the input event: the key has no keycode in this keyboard map (F13-F24 and media keys often have none)`;
  }
  const noDisplay = /could not open (main )?display/i.test(stderr);
  const segfault = exit.signal === 'SIGSEGV' || exit.code === 139;
  if (noDisplay || segfault) {
    return `${base}. nut-js ${noDisplay ? 'could not open the display' : 'crashed in native code'}: check that DISPLAY names a running X server this user may access (and XAUTHORITY, if it needs one)`;
  }
  return base;
}

/**
 * The compiled worker, out/adapter/desktop/desktop-worker.js: next to this module when it runs
 * compiled, found from an ancestor when it is bundled (out/main/chunks/) or loaded from its
 * TypeScript source (vitest). electron-vite builds pass `workerPath`.
 */
export function defaultWorkerPath(): string {
  const worker = path.join('adapter', 'desktop', 'desktop-worker.js');
  const found = findUp(import.meta.url, ['desktop-worker.js', worker, path.join('out', worker)]);
  return found ?? fileURLToPath(new URL('../../out/adapter/desktop/desktop-worker.js', import.meta.url));
}
