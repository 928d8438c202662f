/**
 * Whether the saved config differs from the one the running (or paused) server uses, so the
 * settings window can say "Restart pending" even when it is opened after the save.
 */
import type { Config } from '../config/schema.js';
import type { ServerStatus } from './bridge-api.js';

export function isRestartPending(status: ServerStatus, running: Readonly<Config> | null, readSaved: () => Readonly<Config>): boolean {
  if (!running || (status.state !== 'running' && status.state !== 'paused')) return false;
  try {
    return JSON.stringify(readSaved()) !== JSON.stringify(running);
  } catch {
    // An unreadable or invalid file: a restart would fail, so nothing is pending; the window shows the problem.
    return false;
  }
}
