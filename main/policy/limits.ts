/**
 * A bound on the children the server runs at once (`shell.maxConcurrent`), shared by every call
 * of every request and client: shell.exec today, process.start (which holds a slot while its
 * process runs) later. A call past the bound waits in a bounded FIFO queue; a full queue, a wait
 * longer than QUEUE_WAIT_MS or a cancelled request fails at once with TIMEOUT naming the limit,
 * so a flood of calls (or one legacy JSON-RPC batch of a hundred) never starts a hundred
 * processes, and the server stays free to answer everything else.
 */
import { adapterError } from '../../adapter/errors.js';

/** Waiting calls allowed per running slot. */
export const QUEUE_FACTOR = 4;
/** The longest a call waits for a slot before giving up. */
export const QUEUE_WAIT_MS = 30_000;

export interface Slot {
  /** Gives the slot back; safe to call more than once. */
  release(): void;
}

interface Waiter {
  grant(slot: Slot): void;
}

export class ChildLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly max: number,
    readonly maxQueued: number = max * QUEUE_FACTOR,
    private readonly waitMs: number = QUEUE_WAIT_MS,
    private readonly operation = 'shell.exec',
  ) {
    if (!Number.isSafeInteger(max) || max < 1) throw new Error(`the concurrency limit must be a positive integer, got ${max}`);
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

  /** A slot, once one is free: at once when below the bound, else after waiting in line. */
  acquire(signal?: AbortSignal): Promise<Slot> {
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
