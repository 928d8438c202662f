/** Picks the process lister for the running OS and turns its failures into adapter errors. */
import { adapterError, isComputerAdapterError } from '../contract/errors.js';
import { listDarwinProcesses } from './list-darwin.js';
import { listLinuxProcesses } from './list-linux.js';
import { listWindowsProcesses } from './list-windows.js';
import type { ProcessInfo } from '../contract/processes.js';

const LISTERS: Partial<Record<NodeJS.Platform, () => Promise<ProcessInfo[]>>> = {
  linux: () => listLinuxProcesses(),
  darwin: listDarwinProcesses,
  win32: listWindowsProcesses,
};

export async function listProcesses(platform: NodeJS.Platform = process.platform): Promise<ProcessInfo[]> {
  const lister = LISTERS[platform];
  if (!lister) {
    throw adapterError('OS_ERROR', 'listProcesses', `listing processes is not supported on ${platform} (supported: linux, darwin, win32)`);
  }
  try {
    return await lister();
  } catch (error) {
    if (isComputerAdapterError(error)) throw error;
    const reason = failureReason(error);
    throw adapterError('OS_ERROR', 'listProcesses', `could not list processes on ${platform}${reason ? ` (${reason})` : ''}`);
  }
}

/** A short, secret-free reason: an errno code, the lister's exit code, or unparseable output. */
function failureReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  if (typeof code === 'number') return `exit code ${code}`;
  if ((error as { killed?: unknown } | null)?.killed) return 'timed out';
  if (error instanceof SyntaxError) return 'unreadable output';
  return undefined;
}
