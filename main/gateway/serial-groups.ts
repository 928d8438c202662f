/**
 * Upstreams that share a `serialGroup` take calls one at a time, in the order they came (a
 * browser, a single-user database). A call cancelled while it waits leaves the queue without
 * running.
 */
import { adapterError } from '../../adapter/contract/errors.js';

export class SerialGroups {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(group: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const before = this.tails.get(group) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(group, tail);
    try {
      await waitOrAbort(before, signal);
      return await work();
    } finally {
      release();
      if (this.tails.get(group) === tail) this.tails.delete(group);
    }
  }
}

function waitOrAbort(turn: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return turn.then(() => undefined);
  if (signal.aborted) return Promise.reject(adapterError('PRECONDITION_FAILED', 'gateway.call', 'the call was cancelled while it waited for its serial group'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(adapterError('PRECONDITION_FAILED', 'gateway.call', 'the call was cancelled while it waited for its serial group'));
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
