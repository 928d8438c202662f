/** The signals a caller may send to a pid, and sending them with precise errors. */
import { adapterError } from '../contract/errors.js';
import { POSIX_SIGNALS, type KillSignal } from '../contract/processes.js';

const OPERATION = 'killProcess';

/** Node maps these to TerminateProcess on Windows: all three end the process forcefully. */
export const WINDOWS_SIGNALS: readonly KillSignal[] = ['SIGTERM', 'SIGKILL', 'SIGINT'];

export function allowedSignals(platform: NodeJS.Platform): readonly KillSignal[] {
  return platform === 'win32' ? WINDOWS_SIGNALS : POSIX_SIGNALS;
}

/** Exact, upper-case names only; anything else is INVALID_INPUT naming what is allowed. */
export function parseKillSignal(name: string, platform: NodeJS.Platform): KillSignal {
  const allowed = allowedSignals(platform);
  if ((allowed as readonly string[]).includes(name)) return name as KillSignal;
  const where = platform === 'win32' ? ' on Windows (each ends the process forcefully)' : '';
  throw adapterError('INVALID_INPUT', OPERATION, `signal ${JSON.stringify(name)} is not allowed${where}; use one of ${allowed.join(', ')}`);
}

/** Only a single real process: 0 and negative pids would signal whole process groups. */
export function validatePid(pid: number): void {
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw adapterError('INVALID_INPUT', OPERATION, `pid must be a positive integer, got ${String(pid)}`);
  }
}

export async function killProcess(pid: number, signal: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  validatePid(pid);
  const name = parseKillSignal(signal, platform);
  try {
    process.kill(pid, name);
  } catch (error) {
    throw killError(error, pid, name);
  }
}

export function killError(error: unknown, pid: number, signal: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ESRCH') return adapterError('NOT_FOUND', OPERATION, `no process with pid ${pid} (it may have exited already)`, { pid });
  if (code === 'EPERM') {
    return adapterError('OS_ERROR', OPERATION, `not permitted to send ${signal} to pid ${pid} (EPERM): it belongs to another user or is protected by the OS`, {
      pid,
      code,
    });
  }
  return adapterError('OS_ERROR', OPERATION, `could not send ${signal} to pid ${pid}${code ? ` (${code})` : ''}`, { pid, ...(code ? { code } : {}) });
}
