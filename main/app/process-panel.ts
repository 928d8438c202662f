/**
 * The settings window's live process list, through the same adapter the tools use and gated
 * by the same config switches (process.list / process.kill) of the running server, so the
 * window never shows or does more than the owner granted.
 */
import { isComputerAdapterError } from '../../adapter/errors.js';
import type { Config } from '../config/schema.js';
import type { KillResult, KillSignal, ProcessListResult, ProcessRow } from './bridge-api.js';

export interface ProcessAccess {
  listProcesses(): Promise<Array<{ pid: number; ppid?: number | null; user?: string | null; command: string; args?: string[] }>>;
  killProcess(pid: number, signal: string): Promise<void>;
}

export const MAX_ROWS = 500;

export class ProcessPanel {
  constructor(
    private readonly access: Partial<ProcessAccess>,
    private readonly config: () => Readonly<Config> | null,
    private readonly ownPid: number = process.pid,
  ) {}

  async list(match?: string): Promise<ProcessListResult> {
    const config = this.config();
    if (!config?.process.list) return { ok: false, error: 'Process listing is off. Turn on "List processes", save, and restart the server.' };
    if (typeof this.access.listProcesses !== 'function') return { ok: false, error: 'Process listing is not available in this build.' };
    try {
      const needle = match?.trim().toLowerCase() ?? '';
      const rows: ProcessRow[] = [];
      let truncated = false;
      for (const p of await this.access.listProcesses()) {
        const args = p.args ?? [];
        if (needle && !`${p.command} ${args.join(' ')}`.toLowerCase().includes(needle)) continue;
        if (rows.length >= MAX_ROWS) {
          truncated = true;
          break;
        }
        rows.push({ pid: p.pid, ppid: p.ppid ?? null, user: p.user || null, command: p.command, args });
      }
      return { ok: true, processes: rows, truncated, canKill: config.process.kill };
    } catch (error) {
      return { ok: false, error: errorText(error, 'Could not list processes') };
    }
  }

  async kill(pid: number, signal: KillSignal): Promise<KillResult> {
    const config = this.config();
    if (!config?.process.kill) return { ok: false, error: 'Ending processes is off. Turn on "End processes", save, and restart the server.' };
    if (typeof this.access.killProcess !== 'function') return { ok: false, error: 'Ending processes is not available in this build.' };
    if (pid === this.ownPid) return { ok: false, error: 'That is this app; quit it from the tray menu instead.' };
    try {
      await this.access.killProcess(pid, signal);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: errorText(error, `Could not signal process ${pid}`) };
    }
  }
}

/** Adapter errors carry a safe, owner-facing message; anything else is reduced to its code. */
function errorText(error: unknown, fallback: string): string {
  if (isComputerAdapterError(error)) return `${error.code}: ${error.message}`;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${fallback} (${code})` : fallback;
}
