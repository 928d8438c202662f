/**
 * Answers written to the client's connection that it has not read yet, in bytes. A client that
 * reads slower than commands finish, each with a big output, would otherwise have every finished
 * answer queued in this process at once, so memory would grow with the number of calls rather
 * than with the limits. Commands wait for their slot while the backlog is over budget
 * (policy/child-limiter.ts); the transports say which streams carry answers (stdout, HTTP sockets).
 */
import type { Writable } from 'node:stream';

/** Also looked at this often while waiting, in case the bytes left without a drain event. */
const RECHECK_MS = 50;

export class ReplyBacklog {
  private readonly streams = new Set<Writable>();
  private readonly waiters = new Set<() => void>();

  /** Counts `stream`'s unsent bytes until it closes. */
  watch(stream: Writable): void {
    const wake = () => this.wake();
    this.streams.add(stream);
    stream.on('drain', wake);
    stream.once('close', () => {
      this.streams.delete(stream);
      stream.off('drain', wake);
      this.wake();
    });
  }

  /** Bytes written to the watched streams and not yet handed to the OS. */
  get pendingBytes(): number {
    let bytes = 0;
    for (const stream of this.streams) bytes += stream.writableLength;
    return bytes;
  }

  /** True once at most `bytes` are pending; false when `timeoutMs` passes or `signal` aborts first. */
  whenAtMost(bytes: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.pendingBytes <= bytes) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        clearInterval(recheck);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(ok);
      };
      const check = () => {
        if (this.pendingBytes <= bytes) finish(true);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      const recheck = setInterval(check, RECHECK_MS);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(check);
    });
  }

  private wake(): void {
    for (const check of [...this.waiters]) check();
  }
}
