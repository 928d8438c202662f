/**
 * Fixed-window counters for the endpoints a stranger can reach through the tunnel
 * (registration, authorization, token). Everything arrives from the tunnel's loopback
 * connection, so the limits are global per endpoint: they bound the work and the noise a
 * flood can cause, and an owner who is not connecting loses nothing by them.
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
    if (now - this.windowStart >= this.windowMs) {
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
}
