/**
 * Messages between the desktop client (server process) and the desktop worker. Each request
 * names a DesktopOps method and its arguments; the worker answers once per id, in order.
 * Errors travel as the structural ComputerAdapterError shape.
 */
import { adapterError, isComputerAdapterError, type ComputerAdapterError } from '../errors.js';
import type { DesktopOps } from './desktop-ops.js';

export type DesktopOp = keyof DesktopOps;

export interface WorkerRequest {
  id: number;
  op: DesktopOp;
  args: unknown[];
}

export type WorkerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ComputerAdapterError };

/** The public name of each operation, used in error messages (matches the MCP tool names). */
export const OPERATION_NAMES: Record<DesktopOp, string> = {
  captureScreen: 'screen.capture',
  moveMouse: 'input.move',
  click: 'input.click',
  typeText: 'input.type',
  pressKeys: 'input.key',
  screenSize: 'screen.size',
};

export const DESKTOP_OPS = Object.keys(OPERATION_NAMES) as DesktopOp[];

export function isWorkerRequest(value: unknown): value is WorkerRequest {
  const v = value as Partial<WorkerRequest> | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'number' && DESKTOP_OPS.includes(v.op as DesktopOp) && Array.isArray(v.args);
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
