/**
 * DesktopOps for the server process: every call runs in a separate worker process that owns
 * nut-js (native code that can segfault), started on first use and kept warm. A worker crash
 * or hang fails the calls in flight with OS_ERROR / TIMEOUT, never the server, and the next
 * call starts a fresh worker. Input is validated here first, so a bad key name or text needs
 * neither a worker nor a display.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapterError } from '../errors.js';
import type {
  Capture,
  CaptureOptions,
  ClickOptions,
  ClickResult,
  DesktopOps,
  KeyResult,
  PointerTarget,
  ScreenPoint,
  ScreenSize,
  TypeResult,
} from './desktop-ops.js';
import { shortEnvironment } from '../process/child-env.js';
import { missingDisplay } from './display-env.js';
import { parseKeyCombo } from './keys.js';
import { planTyping } from './typing-plan.js';
import { fromWireError, isWorkerResponse, OPERATION_NAMES, type DesktopOp, type WorkerRequest } from './worker-protocol.js';
import { forkWorker, type WorkerExit, type WorkerHandle, type WorkerSpawner } from './worker-process.js';

export interface DesktopClientOptions {
  /** The worker's environment (its display); defaults to the short environment of this process's. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Defaults to a Node child process; the Electron app passes a utilityProcess spawner. */
  spawn?: WorkerSpawner;
  /** The compiled worker module; defaults to desktop-worker.js next to this module (or under out/). */
  workerPath?: string;
  /** Per call, including a cold worker start. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Typing is paced by the target app; allow for it on top of the base timeout. */
const TYPE_MS_PER_CHAR = 5;
const TYPE_MS_PER_PASTE = 500;

interface Pending {
  operation: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Worker {
  handle: WorkerHandle;
  pending: Map<number, Pending>;
  /** Why we stopped it, when we did (a timeout, close()). */
  stopReason?: string;
}

export class DesktopClient implements DesktopOps {
  private readonly env: NodeJS.ProcessEnv;
  private readonly platform: NodeJS.Platform;
  private readonly spawn: WorkerSpawner;
  private readonly workerPath: string | undefined;
  private readonly timeoutMs: number;
  private worker: Worker | undefined;
  private nextId = 1;

  constructor(options: DesktopClientOptions = {}) {
    this.env = options.env ?? shortEnvironment(process.env);
    this.platform = options.platform ?? process.platform;
    this.spawn = options.spawn ?? forkWorker;
    this.workerPath = options.workerPath;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The running worker's pid (diagnostics and tests). */
  get workerPid(): number | undefined {
    return this.worker?.handle.pid;
  }

  /** Calls sent to the worker and not answered yet (diagnostics and tests). */
  get callsInFlight(): number {
    return this.worker?.pending.size ?? 0;
  }

  async captureScreen(options: CaptureOptions): Promise<Capture> {
    const capture = (await this.call('captureScreen', [options])) as Capture;
    const data = capture.data as Uint8Array;
    return { ...capture, data: Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
  }

  async moveMouse(target: PointerTarget): Promise<ScreenPoint> {
    return (await this.call('moveMouse', [target])) as ScreenPoint;
  }

  async click(options: ClickOptions): Promise<ClickResult> {
    if ((options.x === undefined) !== (options.y === undefined)) {
      throw adapterError('INVALID_INPUT', OPERATION_NAMES.click, 'give both x and y, or neither to click where the pointer is');
    }
    return (await this.call('click', [options])) as ClickResult;
  }

  async typeText(text: string): Promise<TypeResult> {
    const plan = planTyping(text, this.platform, OPERATION_NAMES.typeText); // refuses bad text before any worker starts
    const pastes = plan.steps.filter((s) => s.kind === 'paste').length;
    const timeout = this.timeoutMs + plan.typedChars * TYPE_MS_PER_CHAR + pastes * TYPE_MS_PER_PASTE;
    return (await this.call('typeText', [text], timeout)) as TypeResult;
  }

  async pressKeys(combo: string): Promise<KeyResult> {
    const parsed = parseKeyCombo(combo, OPERATION_NAMES.pressKeys);
    return (await this.call('pressKeys', [parsed.canonical])) as KeyResult;
  }

  async screenSize(display?: number): Promise<ScreenSize> {
    return (await this.call('screenSize', display === undefined ? [] : [display])) as ScreenSize;
  }

  /** Stops the worker; calls in flight fail. The next call would start a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await new Promise<void>((resolve) => {
      worker.handle.setBusy?.(true); // keep the event loop alive until the exit arrives
      worker.handle.onExit(() => resolve());
      this.stop(worker, 'the desktop adapter was closed');
    });
  }

  private call(op: DesktopOp, args: unknown[], timeoutMs = this.timeoutMs): Promise<unknown> {
    const operation = OPERATION_NAMES[op];
    const problem = missingDisplay(this.platform, this.env);
    if (problem) return Promise.reject(adapterError('OS_ERROR', operation, problem));
    let worker: Worker;
    try {
      worker = this.ensureWorker(operation);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.pending.delete(id);
        reject(
          adapterError(
            'TIMEOUT',
            operation,
            `${operation} did not finish within ${timeoutMs} ms; the desktop worker was stopped and the next call starts a new one`,
          ),
        );
        this.stop(worker, `an earlier ${operation} call timed out`);
      }, timeoutMs);
      worker.pending.set(id, { operation, resolve, reject, timer });
      worker.handle.setBusy?.(true);
      const request: WorkerRequest = { id, op, args };
      try {
        worker.handle.send(request);
      } catch {
        // the worker is going away; its exit fails this call with the reason
        this.stop(worker, 'the desktop worker stopped accepting calls');
      }
    });
  }

  private ensureWorker(operation: string): Worker {
    if (this.worker) return this.worker;
    const modulePath = this.workerPath ?? defaultWorkerPath();
    if (!fs.existsSync(modulePath)) {
      throw adapterError('OS_ERROR', operation, `the desktop worker is missing (${modulePath}); build the project with "npm run build"`);
    }
    let handle: WorkerHandle;
    try {
      handle = this.spawn(modulePath, this.env);
    } catch (error) {
      throw adapterError('OS_ERROR', operation, `could not start the desktop worker: ${(error as Error).message ?? 'unknown error'}`);
    }
    const worker: Worker = { handle, pending: new Map() };
    handle.onMessage((message) => this.settle(worker, message));
    handle.onExit((exit) => this.exited(worker, exit));
    this.worker = worker;
    return worker;
  }

  private settle(worker: Worker, message: unknown): void {
    if (!isWorkerResponse(message)) return;
    const pending = worker.pending.get(message.id);
    if (!pending) return; // already timed out
    worker.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (worker.pending.size === 0) worker.handle.setBusy?.(false);
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
  }
}

function crashMessage(operation: string, exit: WorkerExit, worker: Worker): string {
  if (worker.stopReason) return `${operation} was interrupted: the desktop worker was stopped because ${worker.stopReason}; try again`;
  const how = exit.signal ? `signal ${exit.signal}` : exit.code === null ? 'it could not start' : `exit code ${exit.code}`;
  const base = `the desktop worker stopped unexpectedly (${how}) during ${operation}; this call failed and the next call starts a new worker`;
  const stderr = worker.handle.stderrTail?.() ?? '';
  const noDisplay = /could not open (main )?display/i.test(stderr);
  const segfault = exit.signal === 'SIGSEGV' || exit.code === 139;
  if (noDisplay || segfault) {
    return `${base}. nut-js ${noDisplay ? 'could not open the display' : 'crashed in native code'}: check that DISPLAY names a running X server this user may access (and XAUTHORITY, if it needs one)`;
  }
  return base;
}

/**
 * The compiled worker: next to this module when running compiled (out/adapter/desktop/), and
 * under out/ when this module is loaded from its TypeScript source (vitest); bundlers such as
 * electron-vite must pass `workerPath`.
 */
export function defaultWorkerPath(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return path.join(path.dirname(here), 'desktop-worker.js');
  return fileURLToPath(new URL('../../out/adapter/desktop/desktop-worker.js', import.meta.url));
}
