/**
 * The in-process pointer's calls (desktop-client.ts), one at a time and in call order with the
 * worker's: a pointer call waits for the worker's calls in flight, and a worker call made while
 * pointer calls are queued goes after them (input must not interleave). The pointer connects on
 * first use; when it cannot, the calls go to the worker and a new try comes after a pause.
 */
import { adapterError } from '../contract/errors.js';
import type { InProcessPointer } from './desktop-backend.js';
import { DisplayLayout } from './display-layout.js';
import { chooseBackend, sessionProblem } from './load-desktop-backend.js';
import { PointerControl } from './pointer-control.js';

/** After the in-process pointer could not connect, the worker moves the pointer for this long before the next try. */
const POINTER_RETRY_MS = 5000;

export interface PointerTurnsOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Off: every call is the worker's. */
  enabled: boolean;
  /** Resolves once the worker's calls in flight are done. */
  drained(): Promise<void>;
}

export class PointerTurns {
  private pointer: Promise<PointerControl<InProcessPointer> | undefined> | undefined;
  private connected: PointerControl<InProcessPointer> | undefined;
  private retryAt = 0;
  /** The last pointer call, and how many are queued or running. */
  private last: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Counts close() calls: a pointer call queued before one must not run after it. */
  private closes = 0;

  constructor(private readonly options: PointerTurnsOptions) {}

  /** A worker call: after the pointer calls queued now, at once when there are none. */
  after<T>(work: () => Promise<T>): Promise<T> {
    return this.queued > 0 ? this.last.then(work) : work();
  }

  /**
   * `run` on the in-process pointer in its turn (after the worker's calls in flight, before later
   * ones); `inWorker` in that turn when this pointer cannot make the call (run answered false, or
   * it could not connect); `inWorkerNow` when there is no in-process pointer to wait for.
   */
  run<T>(run: (pointer: PointerControl) => Promise<T> | false, inWorker: () => Promise<T>, inWorkerNow: () => Promise<T>, operation: string): Promise<T> {
    const { enabled, platform, env } = this.options;
    if (!enabled || (!this.pointer && Date.now() < this.retryAt)) return inWorkerNow();
    // Checked before the in-process pointer connects, not on every move of a live connection (a fifth of a batch's time).
    const problem = this.connected?.pointer.closed === false ? undefined : sessionProblem(platform, env);
    if (problem) return Promise.reject(adapterError('OS_ERROR', operation, problem));
    this.queued++;
    const closes = this.closes;
    const turn = this.last.then(async (): Promise<T> => {
      await this.options.drained();
      if (this.closes !== closes) throw adapterError('OS_ERROR', operation, `${operation} was not run: the desktop adapter was closed while it waited`);
      const pointer = await this.connectedPointer();
      return (pointer && run(pointer)) || inWorker();
    });
    this.last = turn.then(
      () => this.queued--,
      () => this.queued--,
    );
    return turn;
  }

  async close(): Promise<void> {
    this.closes++;
    const pointer = this.pointer;
    this.pointer = undefined;
    (await pointer)?.pointer.close();
  }

  /** The connected in-process pointer, or undefined (off, or it could not connect: the worker moves the pointer, and a new try comes later). */
  private async connectedPointer(): Promise<PointerControl<InProcessPointer> | undefined> {
    if ((await this.pointer)?.pointer.closed) this.pointer = undefined;
    if (!this.pointer) {
      if (Date.now() < this.retryAt) return undefined;
      const { platform, env, timeoutMs } = this.options;
      const connect = chooseBackend(platform, env)?.inProcessPointer;
      const layout = new DisplayLayout(platform, env);
      this.pointer = (connect ? connect(env, timeoutMs) : Promise.reject(new Error('no in-process pointer')))
        .then((pointer) => (this.connected = new PointerControl(pointer, { displays: (desktop) => layout.of(desktop, 1) })))
        .catch(() => {
          this.retryAt = Date.now() + POINTER_RETRY_MS;
          this.pointer = undefined;
          return undefined;
        });
    }
    return this.pointer;
  }
}
