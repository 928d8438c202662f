import { adapterError, isComputerAdapterError, type ErrorCode } from '../contract/errors.js';

const byErrno: Record<string, [ErrorCode, string]> = {
  ENOENT: ['NOT_FOUND', 'does not exist'],
  EEXIST: ['ALREADY_EXISTS', 'already exists'],
  EACCES: ['OS_ERROR', 'permission denied by the operating system'],
  EPERM: ['OS_ERROR', 'operation not permitted by the operating system'],
  EISDIR: ['INVALID_INPUT', 'is a directory'],
  ENOTDIR: ['INVALID_INPUT', 'a parent is not a directory'],
  ENOTEMPTY: ['INVALID_INPUT', 'directory is not empty (pass recursive: true to delete it with its contents)'],
  ELOOP: ['PATH_NOT_ALLOWED', 'is a symbolic link, which this operation does not follow'],
  ENOSPC: ['OS_ERROR', 'no space left on the device'],
  EROFS: ['OS_ERROR', 'the filesystem is read-only'],
  EBUSY: ['OS_ERROR', 'is busy or locked'],
  ENAMETOOLONG: ['INVALID_INPUT', 'name is too long'],
};

/** Turns a Node errno error into the structural adapter error, naming the path. */
export function fsError(error: unknown, operation: string, path: string): unknown {
  if (isComputerAdapterError(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
  const [mapped, text] = byErrno[code] ?? ['OS_ERROR', `failed (${code})`];
  // One of ours, found before any system call failed (removeWhole's check): its words say more, and name the path.
  if (error instanceof Error && (error as NodeJS.ErrnoException).syscall === undefined && byErrno[code])
    return adapterError(mapped, operation, error.message, { errno: code });
  return adapterError(mapped, operation, `${path}: ${text}`, { errno: code });
}
