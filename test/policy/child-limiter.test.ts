/** The bound on concurrent children: a slot each, a bounded FIFO queue, clear TIMEOUTs past it. */
import { describe, expect, it } from 'vitest';
import { ChildLimiter, QUEUE_FACTOR, type AnswerBacklog } from '../../main/policy/child-limiter.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ChildLimiter', () => {
  it('never runs more than the bound, and serves the queue in arrival order', async () => {
    const limiter = new ChildLimiter(3, { maxQueued: 100 });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const work = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return i;
    };
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => limiter.run(undefined, work(i))));
    expect(results).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(peak).toBe(3);
    expect(order).toEqual(results);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once with TIMEOUT naming the limit when the queue is full', async () => {
    const limiter = new ChildLimiter(2);
    expect(limiter.maxQueued).toBe(2 * QUEUE_FACTOR);
    const held = await Promise.all([limiter.acquire(), limiter.acquire()]);
    const queued = Array.from({ length: limiter.maxQueued }, () => limiter.acquire());
    await expect(limiter.acquire()).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/2 commands are running and 8 are waiting.*shell\.maxConcurrent is 2/),
    });
    held.forEach((slot) => slot.release());
    for (const slot of await Promise.all(queued.slice(0, 2))) slot.release();
    await tick();
    expect(limiter.load.running).toBe(2);
    for (const pending of queued.slice(2)) (await pending).release();
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives up waiting after the wait bound, and when the request is cancelled', async () => {
    const limiter = new ChildLimiter(1, { maxQueued: 4, waitMs: 30 });
    const slot = await limiter.acquire();
    await expect(limiter.acquire()).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/waited 30 ms for one of the 1 command slots/) });
    const abort = new AbortController();
    const waiting = limiter.acquire(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/cancelled/) });
    await expect(limiter.acquire(abort.signal)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(limiter.load).toEqual({ running: 1, waiting: 0 });
    slot.release();
    slot.release(); // a second release gives nothing back twice
    expect(limiter.load.running).toBe(0);
  });

  it('frees the slot when the work fails', async () => {
    const limiter = new ChildLimiter(1);
    await expect(limiter.run(undefined, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(undefined, async () => 'next')).toBe('next');
  });

  it('rejects a bound that is not a positive integer', () => {
    expect(() => new ChildLimiter(0)).toThrow(/positive integer/);
  });

  describe('with an answer backlog', () => {
    /** Unread answers the test sets; `whenAtMost` waits for the test to lower them, like the real one (mcp/reply-backlog.ts). */
    function backlog(pendingBytes: number) {
      const wakers = new Set<() => void>();
      const answers: { pendingBytes: number; set(bytes: number): void; whenAtMost: AnswerBacklog['whenAtMost'] } = {
        pendingBytes,
        set(bytes) {
          this.pendingBytes = bytes;
          for (const wake of [...wakers]) wake();
        },
        whenAtMost(bytes, timeoutMs, signal) {
          return new Promise((resolve) => {
            const done = (ok: boolean) => {
              clearTimeout(timer);
              wakers.delete(check);
              resolve(ok);
            };
            const check = () => {
              if (answers.pendingBytes <= bytes) done(true);
              else if (signal?.aborted) done(false);
            };
            const timer = setTimeout(() => done(false), timeoutMs);
            signal?.addEventListener('abort', check, { once: true });
            wakers.add(check);
            check();
          });
        },
      };
      return answers;
    }

    it('holds a granted slot back until the client has read the earlier answers', async () => {
      const answers = backlog(5000);
      const limiter = new ChildLimiter(2, { maxQueued: 8, waitMs: 10_000, backlog: { answers, budgetBytes: 1000 } });
      let granted = false;
      const pending = limiter.acquire().then((slot) => {
        granted = true;
        return slot;
      });
      await tick();
      expect(granted).toBe(false);
      // The slot is held while it waits, so the bound on children still counts it.
      expect(limiter.load.running).toBe(1);
      answers.set(1000);
      (await pending).release();
      expect(granted).toBe(true);
      expect(limiter.load).toEqual({ running: 0, waiting: 0 });
    });

    it('run (process.start) waits for the backlog too, and holds the slot only while its work runs', async () => {
      const answers = backlog(5000);
      const limiter = new ChildLimiter(1, { maxQueued: 4, waitMs: 10_000, backlog: { answers, budgetBytes: 1000 } });
      let started = false;
      // The work returns at once, as a start does: the process it leaves running holds no slot.
      const start = limiter.run(undefined, async () => {
        started = true;
        return 'handle';
      });
      await tick();
      expect(started).toBe(false);
      answers.set(0);
      expect(await start).toBe('handle');
      expect(limiter.load).toEqual({ running: 0, waiting: 0 });
      // The next call gets the only slot at once.
      const slot = await limiter.acquire();
      expect(limiter.load.running).toBe(1);
      slot.release();
    });

    it('gives up with TIMEOUT saying how much is unread, and gives the slot back', async () => {
      const answers = backlog(3 * 1024 * 1024);
      const limiter = new ChildLimiter(1, { maxQueued: 4, waitMs: 30, backlog: { answers, budgetBytes: 1024 } });
      await expect(limiter.acquire()).rejects.toMatchObject({
        code: 'TIMEOUT',
        message: expect.stringMatching(/client has not read 3\.0 MiB of earlier answers for 30 ms/),
      });
      expect(limiter.load.running).toBe(0);
      const abort = new AbortController();
      const waiting = limiter.acquire(abort.signal);
      abort.abort();
      await expect(waiting).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/cancelled/) });
      expect(limiter.load.running).toBe(0);
    });
  });
});
