/**
 * DesktopOps for the server process: every call runs in a separate worker process that owns
 * the desktop backend's native code (nut-js, which can segfault), through worker-channel.ts, so a
 * worker crash or hang fails calls, never the server. Pointer calls run in this process instead
 * when the session's backend offers an in-process pointer (the X11 protocol on a local display).
 * Input is validated here first, so a bad key name or text needs neither a worker nor a display.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ButtonOptions,
  ButtonResult,
  Capture,
  CaptureOptions,
  ClickOptions,
  ClickResult,
  ClipboardContent,
  ClipboardReadOptions,
  ClipboardWrite,
  DesktopBackendInfo,
  DesktopOps,
  DisplayList,
  DragOptions,
  DragResult,
  ElementTarget,
  KeyOptions,
  KeyResult,
  PointerMoves,
  PointerResult,
  PointerTarget,
  ScrollOptions,
  ScrollResult,
  Target,
  TypeOptions,
  TypeResult,
  UiInvokeOptions,
  UiInvokeResult,
  WindowAction,
  WindowActionResult,
  WindowInfo,
  WindowPlacement,
} from '../contract/desktop.js';
import { adapterError } from '../contract/errors.js';
import type { ScreenSize } from '../contract/geometry.js';
import type { UiFindOptions, UiFindResult, UiSnapshot, UiSnapshotOptions } from '../contract/ui.js';
import { shortEnvironment } from '../process/child-env.js';
import { parseKeyCombo } from './keys.js';
import { chooseBackend, sessionProblem } from './load-desktop-backend.js';
import { movesInTurn, type PointerControl } from './pointer-control.js';
import { PointerTurns } from './pointer-turns.js';
import { WLROOTS_SESSION_VARIABLES } from './wlroots/wlroots-choice.js';
import { scrollClicks } from './scroll-units.js';
import { planTyping } from './typing-plan.js';
import type { NativeSnapshot } from './ui/accessibility-provider.js';
import { SnapshotRegistry } from './ui/snapshot-registry.js';
import { shapeTree, walk } from './ui/ui-tree.js';
import { WorkerChannel, type Args, type Result } from './worker-channel.js';
import { isRefTarget, OPERATION_NAMES, type DesktopOp, type RefTarget, type WorkerTarget } from './worker-protocol.js';
import { forkWorker, type WorkerSpawner } from './worker-process.js';

export interface DesktopClientOptions {
  /** The worker's environment (its display); defaults to the short environment of this process's, with what names a wlroots session. */
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
   * Move and read the pointer in this process when the session's backend offers a pointer for it
   * (the X11 protocol on a local X display; Linux only, default true there). Off, or when it
   * cannot connect, the worker does it.
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
/** A snapshot of a big window takes a while: more time than a click. */
const SNAPSHOT_TIMEOUT_MS = 60_000;
export const MAX_WAIT_MS = 30_000;

function desktopEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const labels = WLROOTS_SESSION_VARIABLES.filter((name) => env[name]).map((name) => [name, env[name]]);
  return { ...shortEnvironment(env), ...Object.fromEntries(labels) };
}

/** Buffers cross the worker's channel as Uint8Arrays. */
const asBuffer = (raw: Uint8Array): Buffer => (Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));

const isElementTarget = (target: Target | undefined): target is ElementTarget => target !== undefined && typeof (target as ElementTarget).element === 'string';

export class DesktopClient implements DesktopOps {
  private readonly env: NodeJS.ProcessEnv;
  private readonly platform: NodeJS.Platform;
  private readonly timeoutMs: number;
  private readonly snapshots: SnapshotRegistry;
  private readonly worker: WorkerChannel;
  private readonly pointers: PointerTurns;

  constructor(options: DesktopClientOptions = {}) {
    this.env = options.env ?? desktopEnvironment(process.env);
    this.platform = options.platform ?? process.platform;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.snapshots = options.snapshots ?? new SnapshotRegistry();
    this.worker = new WorkerChannel({ env: this.env, spawn: options.spawn ?? forkWorker, workerPath: options.workerPath });
    const enabled = options.inProcessPointer ?? this.platform === 'linux';
    this.pointers = new PointerTurns({ platform: this.platform, env: this.env, timeoutMs: this.timeoutMs, enabled, drained: () => this.worker.drained() });
  }

  /** The running worker's pid (diagnostics and tests). */
  get workerPid(): number | undefined {
    return this.worker.pid;
  }

  /** Calls sent to the worker and not answered yet (diagnostics and tests). */
  get callsInFlight(): number {
    return this.worker.callsInFlight;
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
    return { ...capture, data: asBuffer(capture.data) };
  }

  async moveMouse(target: PointerTarget): Promise<PointerResult> {
    return this.pointerCall((pointer) => pointer.move(target, OPERATION_NAMES.moveMouse), 'moveMouse', [target]);
  }

  /** All at once through the in-process pointer; in the worker, one move after another. */
  async moveMouseMany(targets: readonly PointerTarget[]): Promise<PointerMoves> {
    const inTurn = (move: (target: PointerTarget) => Promise<PointerResult>) => () => movesInTurn(targets, move);
    const inProcess = (pointer: PointerControl) => pointer.moveEach(targets, OPERATION_NAMES.moveMouse);
    return this.pointers.run(
      inProcess,
      inTurn((t) => this.send('moveMouse', [t])),
      inTurn((t) => this.call('moveMouse', [t])),
      OPERATION_NAMES.moveMouse,
    );
  }

  async click(options: ClickOptions): Promise<ClickResult> {
    const target = this.workerTarget(options.target, OPERATION_NAMES.click);
    const args: Args<'click'> = [{ ...options, target }];
    // modifiers need the keyboard and an element its bounds: both are the worker's
    if (options.modifiers.length > 0 || isRefTarget(target)) return this.call('click', args);
    return this.pointerCall((pointer) => pointer.canPress && pointer.click(target, options.button, options.clicks, [], OPERATION_NAMES.click), 'click', args);
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

  async uiInvoke(options: UiInvokeOptions): Promise<UiInvokeResult> {
    const target = this.workerTarget(options.target, OPERATION_NAMES.uiInvoke) as RefTarget;
    return this.call('uiInvoke', [target, options.action, options.allowClick]);
  }

  async listWindows(): Promise<WindowInfo[]> {
    return this.call('listWindows', []);
  }

  async windowAction(id: string, action: WindowAction): Promise<WindowActionResult> {
    return this.call('windowAction', [id, action], this.timeoutMs, `window.${action}`);
  }

  async moveResizeWindow(id: string, placement: WindowPlacement): Promise<WindowActionResult> {
    return this.call('moveResizeWindow', [id, placement]);
  }

  async readClipboard(options: ClipboardReadOptions): Promise<ClipboardContent> {
    const content = await this.call('readClipboard', [options]);
    return content.image ? { ...content, image: { ...content.image, data: asBuffer(content.image.data) } } : content;
  }

  async writeClipboard(content: ClipboardWrite): Promise<{ kind: 'text' | 'image'; bytes: number }> {
    return this.call('writeClipboard', [content]);
  }

  /** Decided from the environment, as the worker decides: no worker starts to say it. */
  async backendInfo(): Promise<DesktopBackendInfo> {
    const choice = chooseBackend(this.platform, this.env);
    const problem = sessionProblem(this.platform, this.env);
    if (!choice || problem) return { name: 'none', limits: [problem ?? 'no desktop backend serves this session'] };
    return choice.info(this.env);
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
    await this.pointers.close();
    await this.worker.close('the desktop adapter was closed');
  }

  private call<K extends DesktopOp>(op: K, args: Args<K>, timeoutMs = this.timeoutMs, operation = OPERATION_NAMES[op]): Promise<Result<K>> {
    return this.pointers.after(() => this.send(op, args, timeoutMs, operation));
  }

  /** A pointer call here when the session offers an in-process pointer, else in the worker, in its turn (pointer-turns.ts). */
  private pointerCall<K extends DesktopOp>(
    /** The call in this process, or false when this pointer cannot make it (no XTest). */
    run: (pointer: PointerControl) => Promise<Result<K>> | false,
    op: K,
    args: Args<K>,
    timeoutMs = this.timeoutMs,
    operation = OPERATION_NAMES[op],
  ): Promise<Result<K>> {
    return this.pointers.run(
      run,
      () => this.send(op, args, timeoutMs, operation),
      () => this.call(op, args, timeoutMs, operation),
      operation,
    );
  }

  private send<K extends DesktopOp>(op: K, args: Args<K>, timeoutMs = this.timeoutMs, operation = OPERATION_NAMES[op]): Promise<Result<K>> {
    const problem = sessionProblem(this.platform, this.env);
    if (problem) return Promise.reject(adapterError('OS_ERROR', operation, problem));
    return this.worker.send(op, args, timeoutMs, operation);
  }
}
