/**
 * DesktopOps for the server process: every call runs in a separate worker process that owns
 * nut-js (native code that can segfault), started on first use and kept warm. A worker crash
 * or hang fails the calls in flight with OS_ERROR / TIMEOUT, never the server, and the next
 * call starts a fresh worker. Input is validated here first, so a bad key name or text needs
 * neither a worker nor a display.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { adapterError } from '../contract/errors.js';
import { findUp } from '../os/find-up.js';
import type {
  ButtonOptions,
  ButtonResult,
  Capture,
  CaptureOptions,
  ClickOptions,
  ClickResult,
  DesktopOps,
  DisplayList,
  DragOptions,
  DragResult,
  ElementTarget,
  KeyOptions,
  KeyResult,
  PointerResult,
  PointerTarget,
  ScrollOptions,
  ScrollResult,
  Target,
  TypeOptions,
  TypeResult,
} from '../contract/desktop.js';
import type { ScreenSize } from '../contract/geometry.js';
import { shortEnvironment } from '../process/child-env.js';
import { missingDisplay } from './display-env.js';
import { parseKeyCombo } from './keys.js';
import { scrollClicks } from './scroll-units.js';
import { planTyping } from './typing-plan.js';
import { SnapshotRegistry } from './ui/snapshot-registry.js';
import type { NativeSnapshot } from './ui/accessibility-provider.js';
import type { UiFindOptions, UiFindResult, UiSnapshot, UiSnapshotOptions } from '../contract/ui.js';
import { shapeTree, walk } from './ui/ui-tree.js';
import {
  fromWireError,
  isRefTarget,
  isWorkerResponse,
  OPERATION_NAMES,
  type DesktopOp,
  type RefTarget,
  type WorkerOps,
  type WorkerRequest,
  type WorkerTarget,
} from './worker-protocol.js';
import { X11Pointer } from './x11/x11-pointer.js';
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
  /** Where snapshot handles live; one per client by default. */
  snapshots?: SnapshotRegistry;
  /**
   * Move and read the pointer in this process over the X11 protocol when the display is a local
   * X display (Linux only; default true there). Off, or when it cannot connect, the worker does it.
   */
  inProcessPointer?: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Typing is paced by the target app; allow for it on top of the base timeout. */
const TYPE_MS_PER_CHAR = 5;
const TYPE_MS_PER_PASTE = 500;
/**
 * The walker fetches more than it shows (hidden and wrapper nodes are dropped, and the budget is
 * spent breadth-first): at least MIN_FETCH_NODES, or this many per node asked for, within a hard cap.
 */
const FETCH_FACTOR = 4;
const MIN_FETCH_NODES = 2000;
const MAX_FETCH_NODES = 8000;
const MAX_FETCH_DEPTH = 80;
/** After the in-process pointer could not connect, the worker moves the pointer for this long before the next try. */
const POINTER_RETRY_MS = 5000;
/** A snapshot of a big window takes a while: more time than a click. */
const SNAPSHOT_TIMEOUT_MS = 60_000;
export const MAX_WAIT_MS = 30_000;

const isElementTarget = (target: Target | undefined): target is ElementTarget => target !== undefined && typeof (target as ElementTarget).element === 'string';

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
  /** Waiting for the calls in flight to end (an in-process pointer call, next in order). */
  drained: Array<() => void>;
}

type Args<K extends DesktopOp> = Parameters<WorkerOps[K]>;
type Result<K extends DesktopOp> = Awaited<ReturnType<WorkerOps[K]>>;

export class DesktopClient implements DesktopOps {
  private readonly env: NodeJS.ProcessEnv;
  private readonly platform: NodeJS.Platform;
  private readonly spawn: WorkerSpawner;
  private readonly workerPath: string | undefined;
  private readonly timeoutMs: number;
  private readonly snapshots: SnapshotRegistry;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly inProcessPointer: boolean;
  private pointer: Promise<X11Pointer | undefined> | undefined;
  private pointerRetryAt = 0;
  /** In-process pointer calls in order: the last one, and how many are queued or running. */
  private pointerTurn: Promise<unknown> = Promise.resolve();
  private pointerCalls = 0;
  /** Counts close() calls: a pointer call queued before one must not run after it. */
  private closes = 0;

  constructor(options: DesktopClientOptions = {}) {
    this.env = options.env ?? shortEnvironment(process.env);
    this.platform = options.platform ?? process.platform;
    this.spawn = options.spawn ?? forkWorker;
    this.workerPath = options.workerPath;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.snapshots = options.snapshots ?? new SnapshotRegistry();
    this.inProcessPointer = options.inProcessPointer ?? this.platform === 'linux';
  }

  /** The running worker's pid (diagnostics and tests). */
  get workerPid(): number | undefined {
    return this.worker?.handle.pid;
  }

  /** Calls sent to the worker and not answered yet (diagnostics and tests). */
  get callsInFlight(): number {
    return this.worker?.pending.size ?? 0;
  }

  async listDisplays(): Promise<DisplayList> {
    return this.call('listDisplays', []);
  }

  async captureScreen(options: CaptureOptions): Promise<Capture> {
    if (options.zoom && (options.region || options.display !== undefined)) {
      throw adapterError(
        'INVALID_INPUT',
        OPERATION_NAMES.captureScreen,
        'zoom is a rectangle of the whole desktop (or of a space): do not combine it with region or display',
      );
    }
    const capture = await this.call('captureScreen', [options]);
    const raw = capture.data as Uint8Array;
    const data = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return { ...capture, data };
  }

  async moveMouse(target: PointerTarget): Promise<PointerResult> {
    return this.pointerCall((pointer) => pointer.move(target, OPERATION_NAMES.moveMouse), 'moveMouse', [target]);
  }

  async click(options: ClickOptions): Promise<ClickResult> {
    const target = this.workerTarget(options.target, OPERATION_NAMES.click);
    const args: Args<'click'> = [{ ...options, target }];
    // modifiers need the keyboard and an element its bounds: both are the worker's
    if (options.modifiers.length > 0 || isRefTarget(target)) return this.call('click', args);
    return this.pointerCall((pointer) => pointer.canPress && pointer.click(target, options.button, options.clicks, OPERATION_NAMES.click), 'click', args);
  }

  async scroll(options: ScrollOptions): Promise<ScrollResult> {
    const clicks = scrollClicks(options, OPERATION_NAMES.scroll); // refuses before any worker starts
    const target = this.workerTarget(options.target, OPERATION_NAMES.scroll);
    const args: Args<'scroll'> = [{ ...options, target }];
    if (isRefTarget(target)) return this.call('scroll', args);
    return this.pointerCall((pointer) => pointer.canPress && pointer.scroll(target, clicks, OPERATION_NAMES.scroll), 'scroll', args);
  }

  async drag(options: DragOptions): Promise<DragResult> {
    if (options.path.length < 2) return Promise.reject(adapterError('INVALID_INPUT', OPERATION_NAMES.drag, 'a drag path needs at least two points'));
    const { path: points, button, stepDelayMs } = options;
    // the pauses of one drag are capped at 10 s in all (MAX_DRAG_PAUSE_MS), whatever the path
    return this.pointerCall(
      (pointer) => pointer.canPress && pointer.drag(points, button, stepDelayMs, OPERATION_NAMES.drag),
      'drag',
      [options],
      this.timeoutMs + 10_000,
    );
  }

  async mouseButton(options: ButtonOptions): Promise<ButtonResult> {
    const operation = options.action === 'down' ? 'input.down' : 'input.up';
    return this.pointerCall(
      (pointer) => pointer.canPress && pointer.button(options.action, options.target, options.button, operation),
      'mouseButton',
      [options],
      this.timeoutMs,
      operation,
    );
  }

  async typeText(text: string, options: TypeOptions = {}): Promise<TypeResult> {
    const plan = planTyping(text, this.platform, OPERATION_NAMES.typeText); // refuses bad text before any worker starts
    const pastes = plan.steps.filter((s) => s.kind === 'paste').length;
    const timeout = this.timeoutMs + plan.typedChars * TYPE_MS_PER_CHAR + pastes * TYPE_MS_PER_PASTE;
    const target = options.target ? (this.workerTarget(options.target, OPERATION_NAMES.typeText) as RefTarget) : undefined;
    return this.call('typeText', target ? [text, target] : [text], timeout);
  }

  async pressKeys(combo: string, options: KeyOptions = { holdMs: 0 }): Promise<KeyResult> {
    const parsed = parseKeyCombo(combo, OPERATION_NAMES.pressKeys);
    return this.call('pressKeys', [parsed.canonical, options], this.timeoutMs + options.holdMs);
  }

  async cursor(): Promise<PointerResult> {
    return this.pointerCall((pointer) => pointer.position(OPERATION_NAMES.cursor), 'cursor', []);
  }

  /** Needs no worker: a timer in this process, ended early by the caller's abort. */
  async wait(ms: number, signal?: AbortSignal): Promise<{ waitedMs: number }> {
    if (!Number.isFinite(ms) || ms < 0 || ms > MAX_WAIT_MS) {
      throw adapterError('INVALID_INPUT', 'input.wait', `ms must be from 0 to ${MAX_WAIT_MS}`);
    }
    const started = performance.now();
    try {
      await sleep(ms, undefined, { signal });
    } catch {
      throw adapterError('TIMEOUT', 'input.wait', `the wait was cancelled after ${Math.round(performance.now() - started)} ms`);
    }
    return { waitedMs: Math.round(performance.now() - started) };
  }

  async screenSize(display?: number): Promise<ScreenSize> {
    return this.call('screenSize', display === undefined ? [] : [display]);
  }

  async uiSnapshot(options: UiSnapshotOptions): Promise<UiSnapshot> {
    const native = await this.nativeSnapshot(options, 'ui.snapshot', options.maxNodes);
    const shaped = shapeTree(native.roots, options, native.unfetched);
    const { snapshotHandle, elements } = this.snapshots.store(shaped.roots);
    return {
      snapshotHandle,
      scope: options.scope,
      windows: native.windows,
      elements,
      nodeCount: shaped.count,
      truncated: { byDepth: shaped.byDepth, byCount: shaped.byCount },
      filteredOut: shaped.filteredOut,
      ...(native.hint ? { hint: native.hint } : {}),
    };
  }

  async uiFind(options: UiFindOptions): Promise<UiFindResult> {
    if (!options.role?.trim() && !options.name?.trim()) {
      throw adapterError('INVALID_INPUT', 'ui.find', 'give role, name or both (ui.snapshot returns the whole tree)');
    }
    const native = await this.nativeSnapshot(options, 'ui.find', MAX_FETCH_NODES / FETCH_FACTOR);
    const shaped = shapeTree(native.roots, { maxDepth: MAX_FETCH_DEPTH, maxNodes: MAX_FETCH_NODES });
    const role = options.role?.trim().toLowerCase();
    const name = options.name?.trim().toLowerCase();
    const found = [];
    let searched = 0;
    for (const node of walk(shaped.roots)) {
      searched++;
      if (role && node.role !== role) continue;
      if (name && !node.name.toLowerCase().includes(name)) continue;
      found.push({ ...node, children: [] });
    }
    const { snapshotHandle, elements } = this.snapshots.store(found.slice(0, options.maxResults), true);
    return {
      snapshotHandle,
      windows: native.windows,
      matches: elements,
      truncated: found.length > options.maxResults || shaped.byCount > 0,
      searched,
      ...(native.hint ? { hint: native.hint } : {}),
    };
  }

  private nativeSnapshot(options: { scope: 'window' | 'display'; display?: number }, operation: string, nodes: number): Promise<NativeSnapshot> {
    const request = {
      scope: options.scope,
      ...(options.display === undefined ? {} : { display: options.display }),
      fetchDepth: MAX_FETCH_DEPTH,
      fetchNodes: Math.min(MAX_FETCH_NODES, Math.max(MIN_FETCH_NODES, nodes * FETCH_FACTOR)),
      operation,
    };
    return this.call('uiSnapshot', [request], SNAPSHOT_TIMEOUT_MS, operation);
  }

  /** An element target becomes its native ref (or a clear NOT_FOUND); a point passes through. */
  private workerTarget(target: Target | undefined, operation: string): WorkerTarget | undefined {
    if (!isElementTarget(target)) return target;
    const element = target as ElementTarget;
    return { ref: this.snapshots.resolve(element.snapshotHandle, element.element, operation), id: element.element };
  }

  /** Stops the worker; calls in flight fail. The next call would start a new one. */
  async close(): Promise<void> {
    this.closes++;
    const pointer = this.pointer;
    this.pointer = undefined;
    (await pointer)?.close();
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await new Promise<void>((resolve) => {
      worker.handle.setBusy?.(true); // keep the event loop alive until the exit arrives
      worker.handle.onExit(() => resolve());
      this.stop(worker, 'the desktop adapter was closed');
    });
  }

  private call<K extends DesktopOp>(op: K, args: Args<K>, timeoutMs = this.timeoutMs, operation = OPERATION_NAMES[op]): Promise<Result<K>> {
    // input must not interleave: a worker call made while a pointer call is queued goes after it
    if (this.pointerCalls > 0) return this.pointerTurn.then(() => this.send(op, args, timeoutMs, operation));
    return this.send(op, args, timeoutMs, operation);
  }

  /**
   * A pointer call in this process when the X11 pointer is available, else in the worker. Either
   * way it runs after the worker's calls in flight and before any worker call made after it.
   */
  private pointerCall<K extends DesktopOp>(
    /** The call in this process, or false when this pointer cannot make it (no XTest). */
    run: (pointer: X11Pointer) => Promise<Result<K>> | false,
    op: K,
    args: Args<K>,
    timeoutMs = this.timeoutMs,
    operation = OPERATION_NAMES[op],
  ): Promise<Result<K>> {
    if (!this.inProcessPointer || (!this.pointer && Date.now() < this.pointerRetryAt)) return this.call(op, args, timeoutMs, operation);
    const problem = missingDisplay(this.platform, this.env);
    if (problem) return Promise.reject(adapterError('OS_ERROR', operation, problem));
    this.pointerCalls++;
    const closes = this.closes;
    const turn = this.pointerTurn.then(async (): Promise<Result<K>> => {
      await this.drained();
      if (this.closes !== closes) throw adapterError('OS_ERROR', operation, `${operation} was not run: the desktop adapter was closed while it waited`);
      const pointer = await this.x11Pointer();
      return (pointer && run(pointer)) || this.send(op, args, timeoutMs, operation);
    });
    this.pointerTurn = turn.then(
      () => this.pointerCalls--,
      () => this.pointerCalls--,
    );
    return turn;
  }

  /** The connected in-process pointer, or undefined (off, or it could not connect: the worker moves the pointer, and a new try comes later). */
  private async x11Pointer(): Promise<X11Pointer | undefined> {
    if ((await this.pointer)?.closed) this.pointer = undefined;
    if (!this.pointer) {
      if (Date.now() < this.pointerRetryAt) return undefined;
      this.pointer = X11Pointer.connect(this.env, this.timeoutMs).catch(() => {
        this.pointerRetryAt = Date.now() + POINTER_RETRY_MS;
        this.pointer = undefined;
        return undefined;
      });
    }
    return this.pointer;
  }

  /** Resolves when the worker has no call in flight. */
  private drained(): Promise<void> {
    const worker = this.worker;
    if (!worker || worker.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => worker.drained.push(resolve));
  }

  private send<K extends DesktopOp>(op: K, args: Args<K>, timeoutMs = this.timeoutMs, operation = OPERATION_NAMES[op]): Promise<Result<K>> {
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
      worker.pending.set(id, { operation, resolve: resolve as (value: unknown) => void, reject, timer });
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
    const worker: Worker = { handle, pending: new Map(), drained: [] };
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
