/**
 * Messages between the desktop client (server process) and the desktop worker. Each request
 * names a WorkerOps method and its arguments; the worker answers once per id, in order, over
 * one persistent channel. Errors travel as the structural ComputerAdapterError shape.
 *
 * WorkerOps is DesktopOps as the worker sees it: element targets arrive as native refs (the
 * client's snapshot registry resolved them), files are written by the client, waits never
 * reach the worker.
 */
import { adapterError, isComputerAdapterError, type ComputerAdapterError } from '../contract/errors.js';
import type {
  ButtonOptions,
  ButtonResult,
  Capture,
  ClipboardContent,
  ClipboardReadOptions,
  ClipboardWrite,
  UiInvokeResult,
  WindowAction,
  WindowActionResult,
  WindowInfo,
  WindowPlacement,
  CaptureOptions,
  ClickOptions,
  ClickResult,
  DisplayList,
  DragOptions,
  DragResult,
  KeyOptions,
  KeyResult,
  PointerResult,
  PointerTarget,
  ScrollOptions,
  ScrollResult,
  TypeResult,
} from '../contract/desktop.js';
import type { ScreenSize } from '../contract/geometry.js';
import type { NativeSnapshot } from './ui/accessibility-provider.js';

/** An element to act on: its native ref and the id the caller knows it by. */
export interface RefTarget {
  ref: string;
  id: string;
}

export type WorkerTarget = PointerTarget | RefTarget;

export const isRefTarget = (target: WorkerTarget | undefined): target is RefTarget => target !== undefined && typeof (target as RefTarget).ref === 'string';

export interface WorkerSnapshotRequest {
  scope: 'window' | 'display';
  display?: number;
  fetchDepth: number;
  fetchNodes: number;
}

export interface WorkerOps {
  listDisplays(): Promise<DisplayList>;
  captureScreen(options: CaptureOptions): Promise<Capture>;
  moveMouse(target: PointerTarget): Promise<PointerResult>;
  click(options: Omit<ClickOptions, 'target'> & { target?: WorkerTarget }): Promise<ClickResult>;
  scroll(options: Omit<ScrollOptions, 'target'> & { target?: WorkerTarget }): Promise<ScrollResult>;
  drag(options: DragOptions): Promise<DragResult>;
  mouseButton(options: ButtonOptions): Promise<ButtonResult>;
  typeText(text: string, target?: RefTarget): Promise<TypeResult>;
  pressKeys(combo: string, options: KeyOptions): Promise<KeyResult>;
  cursor(): Promise<PointerResult>;
  screenSize(display?: number): Promise<ScreenSize>;
  uiSnapshot(request: WorkerSnapshotRequest): Promise<NativeSnapshot>;
  uiInvoke(target: RefTarget, action: string | undefined, allowClick: boolean): Promise<UiInvokeResult>;
  listWindows(): Promise<WindowInfo[]>;
  windowAction(id: string, action: WindowAction): Promise<WindowActionResult>;
  moveResizeWindow(id: string, placement: WindowPlacement): Promise<WindowActionResult>;
  readClipboard(options: ClipboardReadOptions): Promise<ClipboardContent>;
  writeClipboard(content: ClipboardWrite): Promise<{ kind: 'text' | 'image'; bytes: number }>;
}

export type DesktopOp = keyof WorkerOps;

export interface WorkerRequest {
  id: number;
  op: DesktopOp;
  args: unknown[];
}

export type WorkerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ComputerAdapterError };

/** The public name of each operation, used in error messages (matches the MCP tool names). */
export const OPERATION_NAMES: Record<DesktopOp, string> = {
  listDisplays: 'screen.displays',
  captureScreen: 'screen.capture',
  moveMouse: 'input.move',
  click: 'input.click',
  scroll: 'input.scroll',
  drag: 'input.drag',
  mouseButton: 'input.down',
  typeText: 'input.type',
  pressKeys: 'input.key',
  cursor: 'input.cursor',
  screenSize: 'screen.size',
  uiSnapshot: 'ui.snapshot',
  uiInvoke: 'ui.invoke',
  listWindows: 'window.list',
  windowAction: 'window.focus',
  moveResizeWindow: 'window.move_resize',
  readClipboard: 'clipboard.read',
  writeClipboard: 'clipboard.write',
};

export const DESKTOP_OPS = Object.keys(OPERATION_NAMES) as DesktopOp[];

export function isWorkerRequest(value: unknown): value is WorkerRequest {
  const v = value as Partial<WorkerRequest> | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'number' && DESKTOP_OPS.includes(v.op as DesktopOp) && Array.isArray(v.args);
}

/** From the worker while the desktop asks its owner: the calls in flight may take this long more. */
export interface WorkerOwnerWait {
  ownerWaitMs: number;
}

export function isOwnerWait(value: unknown): value is WorkerOwnerWait {
  const v = value as { ownerWaitMs?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.ownerWaitMs === 'number' && v.ownerWaitMs > 0;
}

export function isWorkerResponse(value: unknown): value is WorkerResponse {
  const v = value as { id?: unknown; ok?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'number' && typeof v.ok === 'boolean';
}

/** What crosses the process boundary for a failure: only the structural fields. */
export function toWireError(error: unknown, operation: string): ComputerAdapterError {
  if (isComputerAdapterError(error)) {
    return { code: error.code, message: error.message, operation: error.operation, ...(error.details ? { details: error.details } : {}) };
  }
  // nut-js rejects with strings or Errors such as "Invalid key code specified."; keep one short line.
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? '';
  return { code: 'OS_ERROR', message: `${operation} failed in the desktop worker: ${reason || 'unknown error'}`, operation };
}

export function fromWireError(error: unknown, operation: string): Error & ComputerAdapterError {
  if (isComputerAdapterError(error)) return adapterError(error.code, error.operation, error.message, error.details);
  return adapterError('OS_ERROR', operation, `${operation} failed: the desktop worker sent a malformed error`);
}
