/**
 * The settings window's live process list, through the same adapter the tools use and decided
 * by the running server's own ProcessPolicy object (the same pid rules, ownOnly and redaction
 * as process.list and process.kill), so the window never shows or does more than the owner
 * granted. A grant counts only while the server runs with it AND the saved config still has it:
 * turning a switch off and saving takes effect in the window at once, before any restart.
 */
import { isComputerAdapterError } from '../../adapter/contract/errors.js';
import type { ProcessInfo } from '../../adapter/contract/processes.js';
import type { Config } from '../config/schema.js';
import type { ProcessPolicy } from '../policy/process.js';
import type { KillResult, KillSignal, ProcessListResult, ProcessRow } from './bridge-api.js';

export interface ProcessAccess {
  listProcesses(): Promise<ProcessInfo[]>;
  killProcess(pid: number, signal: string): Promise<void>;
}

/** The process grants of the saved config file now; null when it cannot be read (counts as off). */
export type SavedGrants = () => Pick<Config['process'], 'list' | 'kill'> | null;

export const MAX_ROWS = 500;
/** Rows whose signal target is checked at once (a few /proc reads each on Linux; one cached listing elsewhere). */
const CHECKS_AT_ONCE = 16;

const LIST_OFF = 'Process listing is off. Turn on "List processes", save, and restart the server.';
const KILL_OFF = 'Ending processes is off. Turn on "End processes", save, and restart the server.';
const NOT_RUNNING = 'The server is not running; the process list follows the running server’s settings. Start or resume it first.';

export class ProcessPanel {
  constructor(
    private readonly access: Partial<ProcessAccess>,
    /** The running server's process policy; null while it is stopped, paused or failed. */
    private readonly policy: () => ProcessPolicy | null,
    private readonly saved: SavedGrants = () => ({ list: true, kill: true }),
  ) {}

  async list(match?: string): Promise<ProcessListResult> {
    const policy = this.policy();
    if (!policy) return { ok: false, error: NOT_RUNNING };
    const saved = this.saved();
    if (!policy.canList || !saved?.list) return { ok: false, error: LIST_OFF };
    if (typeof this.access.listProcesses !== 'function') return { ok: false, error: 'Process listing is not available in this build.' };
    try {
      const visible = policy.visible(await this.access.listProcesses(), match);
      const canKill = policy.canKill && saved.kill;
      const shown = visible.slice(0, MAX_ROWS);
      // Each row asks the same rules a kill would (signalTarget), so the window offers "End" only where it would work.
      const verdicts = canKill ? await mapInBatches(shown, CHECKS_AT_ONCE, (p) => endVerdict(policy, p.pid)) : null;
      const rows: ProcessRow[] = shown.map((p, i) => ({
        pid: p.pid,
        ppid: p.ppid ?? null,
        user: p.user || null,
        command: p.command,
        args: p.args,
        endable: verdicts?.[i] === null,
        protectedReason: verdicts?.[i] ?? null,
      }));
      return { ok: true, processes: rows, truncated: visible.length > MAX_ROWS, canKill, killable: canKill ? policy.describeKillable() : null };
    } catch (error) {
      return { ok: false, error: errorText(error, 'Could not list processes') };
    }
  }

  async kill(pid: number, signal: KillSignal): Promise<KillResult> {
    const policy = this.policy();
    if (!policy) return { ok: false, error: NOT_RUNNING };
    if (!policy.canKill || !this.saved()?.kill) return { ok: false, error: KILL_OFF };
    if (typeof this.access.killProcess !== 'function') return { ok: false, error: 'Ending processes is not available in this build.' };
    try {
      const target = await policy.signalTarget(pid);
      await this.access.killProcess(target.pid, signal);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: errorText(error, `Could not signal process ${pid}`) };
    }
  }
}

/** null when process.kill's rules allow ending `pid` now, else the policy's reason, to follow "This process". */
async function endVerdict(policy: ProcessPolicy, pid: number): Promise<string | null> {
  try {
    await policy.signalTarget(pid);
    return null;
  } catch (error) {
    if (!isComputerAdapterError(error)) return 'could not be checked';
    if (error.code === 'NOT_FOUND') return 'has exited';
    // "pid 7 is a kernel thread; process.kill may signal ..." -> "is a kernel thread"
    return error.message.split('; process.kill may signal')[0]!.replace(/^pid \d+(?: \(a thread of process \d+\))? /, '');
  }
}

async function mapInBatches<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

/** Adapter errors carry a safe, owner-facing message; anything else is reduced to its code. */
function errorText(error: unknown, fallback: string): string {
  if (isComputerAdapterError(error)) return `${error.code}: ${error.message}`;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${fallback} (${code})` : fallback;
}
