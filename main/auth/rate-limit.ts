/**
 * Fixed-window counters for the endpoints a stranger can reach through the tunnel
 * (registration, authorization, token). Everything arrives from the tunnel's loopback
 * connection, so a per-caller limit is impossible: RateLimiter is global per endpoint and
 * bounds the work and the noise a flood can cause. Where a request proves who it is (a known
 * code or refresh token), KeyedRateLimiter gives that client its own budget instead, so junk
 * from strangers cannot use it up.
 */
export class RateLimiter {
  private windowStart = 0;
  private count = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when one more attempt fits in the current window (and counts it). */
  take(): boolean {
    const now = this.now();
    if (this.expired(now)) {
      this.windowStart = now;
      this.count = 0;
    }
    if (this.count >= this.limit) return false;
    this.count++;
    return true;
  }

  /** Seconds until the window resets, for Retry-After. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - this.now()) / 1000));
  }

  expired(now = this.now()): boolean {
    return now - this.windowStart >= this.windowMs;
  }
}

/** One RateLimiter per key (a client id); keys whose window ended are forgotten, so the map stays small. */
export class KeyedRateLimiter {
  private readonly byKey = new Map<string, RateLimiter>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key's limiter after counting one attempt: `ok` false when its window is full. */
  take(key: string): { ok: boolean; limiter: RateLimiter } {
    for (const [other, limiter] of this.byKey) if (limiter.expired()) this.byKey.delete(other);
    let limiter = this.byKey.get(key);
    if (!limiter) this.byKey.set(key, (limiter = new RateLimiter(this.limit, this.windowMs, this.now)));
    return { ok: limiter.take(), limiter };
  }
}
