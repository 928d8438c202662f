/**
 * The process rules (process.list, process.kill, the tray's process panel), built once per
 * config. Every pid is first resolved to the process it names, through the adapter's port: on
 * Linux a signal to any thread id reaches the whole thread group, so `SIGSTOP` to one of this
 * server's thread ids would freeze it. Only then do the rules apply, whatever id was given:
 *
 * - never this server, nor the chain of processes that started it (its parent is the MCP host,
 *   the tray app's launcher or the terminal; ending one of them ends or orphans the server);
 * - never pid 1 (init) nor a kernel thread (Linux PF_KTHREAD, the OS kernel's pids elsewhere);
 * - with `process.ownOnly`, only processes of the user this server runs as, for listing and
 *   signalling alike; where the OS does not tell the owner cheaply (Windows), nothing is.
 *
 * Listings are redacted (argv-redaction.ts) before a `match` filter looks at them.
 *
 * Residual window: a pid can exit and be reused between the check and the signal. The signal
 * goes to the checked process's own pid; Node has no pidfd to close that gap entirely.
 */
import { adapterError } from '../../adapter/contract/errors.js';
import type { OwnProcess, PolicyPort, ProcessIdentity } from '../../adapter/contract/policy-port.js';
import type { ProcessInfo } from '../../adapter/contract/processes.js';
import type { Config } from '../config/schema.js';
import { redactArgs } from './argv-redaction.js';

export interface ProcessView {
  pid: number;
  ppid: number;
  user: string;
  command: string;
  args: string[];
}

export interface SignalTarget {
  /** The process that will be signalled (the thread-group leader of the id given). */
  pid: number;
  /** The id given was a thread of that process, not the process itself. */
  thread: boolean;
}

/** Bounds the walk up the parent chain (a loop or a very deep tree ends it). */
const MAX_ANCESTORS = 64;

const LIST = 'process.list';
const KILL = 'process.kill';

export class ProcessPolicy {
  private ancestors: Promise<ReadonlySet<number>> | undefined;

  constructor(
    private readonly config: Readonly<Pick<Config, 'process'>>,
    private readonly port: Pick<PolicyPort, 'processIdentity' | 'ownProcess'>,
  ) {}

  get canList(): boolean {
    return this.config.process.list;
  }

  get canKill(): boolean {
    return this.config.process.kill;
  }

  /** What may be signalled, for denials and descriptions. */
  describeKillable(): string {
    const whose = this.config.process.ownOnly ? "this user's processes" : 'processes this user may signal';
    return `${whose}, except this server, the programs that started it, pid 1 and kernel threads`;
  }

  /**
   * The processes a caller may see: only the owner's with ownOnly, kernel threads only when
   * asked (they are no program and cannot be signalled), secrets in command lines redacted,
   * then filtered by `match` (a case-insensitive substring of the redacted text).
   */
  /**
   * Whether a socket's process (pid and program) may be named: with process.ownOnly only when the
   * socket is the server's user's, where the OS says whose it is (as process.list lists).
   */
  showsSocketOwner(uid: number | undefined): boolean {
    if (!this.config.process.ownOnly || uid === undefined) return true;
    return sameOwner(this.port.ownProcess(), { uid, user: null });
  }

  visible(all: readonly ProcessInfo[], match?: string, options: { kernelThreads?: boolean } = {}): ProcessView[] {
    if (!this.canList) throw adapterError('CAPABILITY_DISABLED', LIST, 'listing processes is disabled (process.list is false)');
    const own = this.config.process.ownOnly ? this.port.ownProcess() : null;
    const needle = match?.trim().toLowerCase() ?? '';
    const out: ProcessView[] = [];
    for (const p of all) {
      if (p.kernel && !options.kernelThreads) continue;
      if (own && !sameOwner(own, { uid: p.uid ?? null, user: p.user || null })) continue;
      const view = { pid: p.pid, ppid: p.ppid, user: p.user, command: p.command, args: redactArgs(p.args) };
      if (needle && !`${view.command} ${view.args.join(' ')}`.toLowerCase().includes(needle)) continue;
      out.push(view);
    }
    return out;
  }

  /** Resolves `pid` to its process and applies every rule; the result is what to signal. */
  async signalTarget(pid: number): Promise<SignalTarget> {
    if (!this.canKill) throw adapterError('CAPABILITY_DISABLED', KILL, 'signalling processes is disabled (process.kill is false)');
    if (!Number.isSafeInteger(pid) || pid <= 0) throw adapterError('INVALID_INPUT', KILL, `pid must be a positive integer, got ${String(pid)}`);
    const target = await this.port.processIdentity(pid);
    if (!target) throw adapterError('NOT_FOUND', KILL, `no process with pid ${pid} (it may have exited, or is not visible to this user)`, { pid });
    const named = target.pid === pid ? `pid ${pid}` : `pid ${pid} (a thread of process ${target.pid})`;
    const refuse = (why: string) => adapterError('INVALID_INPUT', KILL, `${named} ${why}; process.kill may signal ${this.describeKillable()}`, { pid });

    const own = this.port.ownProcess();
    if (target.pid === own.pid) throw refuse('is this MCP server; stop it from its own window or terminal');
    if ((await this.ancestorsOf(own)).has(target.pid)) throw refuse('started this MCP server (its MCP host, the tray app or a terminal)');
    if (target.pid === 1) throw refuse('is the init process and is never signalled');
    if (target.kernel) throw refuse('is a kernel thread');
    if (this.config.process.ownOnly && !sameOwner(own, target)) throw refuse('belongs to another user (process.ownOnly is true)');
    return { pid: target.pid, thread: target.pid !== pid };
  }

  /**
   * The server's parent chain, walked once: a chain only loses members over time (a parent that
   * exits hands its children to an ancestor or to init), so the first walk covers later ones.
   */
  private ancestorsOf(own: OwnProcess): Promise<ReadonlySet<number>> {
    this.ancestors ??= (async () => {
      const chain = new Set<number>();
      for (let pid = own.ppid; pid > 1 && !chain.has(pid) && chain.size < MAX_ANCESTORS;) {
        chain.add(pid);
        const parent = await this.port.processIdentity(pid).catch(() => null);
        if (!parent) break;
        pid = parent.ppid;
      }
      return chain;
    })();
    return this.ancestors;
  }
}

/** Same owner by uid where both sides know it, else by user name; unknown is never the same. */
function sameOwner(own: Pick<OwnProcess, 'uid' | 'user'>, other: Pick<ProcessIdentity, 'uid' | 'user'>): boolean {
  if (own.uid !== null && other.uid !== null) return own.uid === other.uid;
  if (own.user !== null && other.user !== null) return own.user === other.user;
  return false;
}
