/**
 * A bound on the commands running inside calls at once (`shell.maxConcurrent`), shared by every
 * call of every request and client: a shell.exec while the call waits for it, a process.start
 * while it starts. A process under a handle (process.start, or a shell.exec moved to one at
 * promoteAfterMs) gives its slot back: shell.maxProcesses bounds those (adapter/process/
 * process-registry.ts), so watchers and dev servers never starve later calls, and the server
 * runs at most maxConcurrent + maxProcesses children. A call past the bound waits in a bounded
 * FIFO queue; a full queue, a wait longer than QUEUE_WAIT_MS or a cancelled request fails at
 * once with TIMEOUT naming the limit, so a flood of calls (or one legacy JSON-RPC batch of a
 * hundred) never starts a hundred processes, and the server stays free to answer everything else.
 *
 * With an answer backlog (mcp/reply-backlog.ts), a granted slot also waits while the client has
 * more than `budgetBytes` of earlier answers unread, within the same wait bound: a slow reader
 * then slows the commands down instead of this process queueing every big answer at once.
 */
import { adapterError } from '../../adapter/contract/errors.js';

/** Waiting calls allowed per running slot. */
export const QUEUE_FACTOR = 4;
/** The longest a call waits for a slot before giving up. */
export const QUEUE_WAIT_MS = 30_000;

export interface Slot {
  /** Gives the slot back; safe to call more than once. */
  release(): void;
}

/** Bytes of answers the client has not read yet (mcp/reply-backlog.ts). */
export interface AnswerBacklog {
  readonly pendingBytes: number;
  whenAtMost(bytes: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
}

interface Waiter {
  grant(slot: Slot): void;
}

export interface LimiterOptions {
  /** Calls that may wait for a slot (default: QUEUE_FACTOR x max). */
  maxQueued?: number;
  /** How long one may wait (default QUEUE_WAIT_MS). */
  waitMs?: number;
  /** Named in refusals (default shell.exec). */
  operation?: string;
  /** Unread answers past `budgetBytes` hold a granted slot back. */
  backlog?: { answers: AnswerBacklog; budgetBytes: number };
}

export class ChildLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  readonly maxQueued: number;
  private readonly waitMs: number;
  private readonly operation: string;
  private readonly backlog: LimiterOptions['backlog'];

  constructor(
    readonly max: number,
    options: LimiterOptions = {},
  ) {
    if (!Number.isSafeInteger(max) || max < 1) throw new Error(`the concurrency limit must be a positive integer, got ${max}`);
    this.maxQueued = options.maxQueued ?? max * QUEUE_FACTOR;
    this.waitMs = options.waitMs ?? QUEUE_WAIT_MS;
    this.operation = options.operation ?? 'shell.exec';
    this.backlog = options.backlog;
  }

  /** Children running now and calls waiting for a slot (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `work` while holding a slot; the slot is given back however it ends. */
  async run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const slot = await this.acquire(signal);
    try {
      return await work();
    } finally {
      slot.release();
    }
  }

  /** A slot, once one is free and the client has read enough of the earlier answers. */
  async acquire(signal?: AbortSignal): Promise<Slot> {
    const queued = this.running >= this.max;
    const slot = await this.freeSlot(signal);
    if (!this.backlog) return slot;
    // A queued call gets its slot as another command ends, just before that command's answer is
    // written: let the answer reach the backlog first, or the check below would not see it.
    if (queued) await new Promise((resolve) => setImmediate(resolve));
    const { answers, budgetBytes } = this.backlog;
    if (await answers.whenAtMost(budgetBytes, this.waitMs, signal)) return slot;
    slot.release();
    if (signal?.aborted) throw this.cancelled();
    throw adapterError(
      'TIMEOUT',
      this.operation,
      `the client has not read ${mib(answers.pendingBytes)} MiB of earlier answers for ${this.waitMs} ms, so no new command starts; read those answers, then try again`,
    );
  }

  /** A slot: at once when below the bound, else after waiting in line. */
  private freeSlot(signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(this.cancelled());
    if (this.running < this.max) return Promise.resolve(this.take());
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(
        adapterError(
          'TIMEOUT',
          this.operation,
          `${this.running} commands are running and ${this.waiting.length} are waiting, the most this server allows (shell.maxConcurrent is ${this.max}, with ${this.maxQueued} waiting); try again when some have finished`,
        ),
      );
    }
    return new Promise<Slot>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        grant: (slot) => {
          leave();
          resolve(slot);
        },
      };
      const onAbort = () => {
        leave();
        reject(this.cancelled());
      };
      const timer = setTimeout(() => {
        leave();
        reject(
          adapterError(
            'TIMEOUT',
            this.operation,
            `waited ${this.waitMs} ms for one of the ${this.max} command slots (shell.maxConcurrent is ${this.max}); try again when some have finished`,
          ),
        );
      }, this.waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private take(): Slot {
    this.running++;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.running--;
        // Hand the slot straight to the next in line, so a late arrival cannot overtake it.
        const next = this.waiting[0];
        if (next) next.grant(this.take());
      },
    };
  }

  private cancelled(): Error {
    return adapterError('TIMEOUT', this.operation, 'the request was cancelled while it waited for a command slot');
  }
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
