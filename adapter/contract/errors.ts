/**
 * The one error shape that crosses the adapter seam. It is structural on purpose:
 * the MCP layer recognises it with `isComputerAdapterError`, never with `instanceof`, so
 * errors keep working across bundles, worker processes and duplicated module copies.
 *
 * For an adapter author (remote, Wayland, anything): throw every expected failure as
 * `adapterError(code, operation, message)` with the code that says what the caller can do about
 * it; anything else reaches the client as an internal error. The one runtime module of
 * adapter/contract/: no imports, so any adapter (or a worker process) can carry it.
 */

export const ERROR_CODES = [
  'CAPABILITY_DISABLED',
  'PATH_NOT_ALLOWED',
  'COMMAND_NOT_ALLOWED',
  'INVALID_INPUT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PRECONDITION_FAILED',
  'NO_MATCH',
  'AMBIGUOUS_MATCH',
  'TIMEOUT',
  'OUTPUT_LIMIT',
  'OS_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ComputerAdapterError {
  code: ErrorCode;
  message: string;
  operation: string;
  details?: Record<string, unknown>;
}

const codes: ReadonlySet<string> = new Set(ERROR_CODES);

export function isComputerAdapterError(value: unknown): value is ComputerAdapterError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.code === 'string' &&
    codes.has(v.code) &&
    typeof v.message === 'string' &&
    typeof v.operation === 'string' &&
    (v.details === undefined || (typeof v.details === 'object' && v.details !== null))
  );
}

/**
 * Builds a throwable ComputerAdapterError. It is a real Error (so stack traces survive for
 * diagnostics) that also satisfies the structural shape.
 */
export function adapterError(code: ErrorCode, operation: string, message: string, details?: Record<string, unknown>): Error & ComputerAdapterError {
  const error = new Error(message) as Error & ComputerAdapterError;
  error.name = 'ComputerAdapterError';
  error.code = code;
  error.operation = operation;
  if (details !== undefined) error.details = details;
  return error;
}
