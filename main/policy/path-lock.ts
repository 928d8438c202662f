/**
 * Locks by path for the fs tools, so that within this server a check-then-act step (an
 * expectedSha256 comparison and the write that follows, a move and a read of what it moves)
 * is not interleaved with a conflicting call. Two claims conflict when one path is the other
 * or lies below it and at least one of them is exclusive; everything else runs in parallel,
 * so a slow read of one file never holds up work elsewhere.
 *
 * This is about consistency, not containment: containment holds for the object actually
 * opened (GuardedPath.confirm), whatever other processes do. Waiters start in arrival order
 * among those they conflict with, so a writer is never starved by a stream of readers.
 */
import { isInside, type Platform } from './path-compare.js';

export interface PathClaim {
  path: string;
  exclusive: boolean;
}

interface Holder {
  claims: readonly PathClaim[];
  start(): void;
}

export class PathLock {
  private readonly running = new Set<Holder>();
  private readonly waiting: Holder[] = [];

  constructor(private readonly platform: Platform = process.platform) {}

  run<T>(claims: readonly PathClaim[], work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const holder: Holder = {
        claims,
        start: () => {
          this.running.add(holder);
          Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              this.running.delete(holder);
              this.pump();
            });
        },
      };
      this.waiting.push(holder);
      this.pump();
    });
  }

  /** Holders currently running (for tests and diagnostics). */
  get active(): number {
    return this.running.size;
  }

  private pump(): void {
    const blocked: Holder[] = [];
    for (const holder of [...this.waiting]) {
      const clash = (other: Holder) => this.conflict(holder, other);
      if ([...this.running].some(clash) || blocked.some(clash)) {
        blocked.push(holder);
        continue;
      }
      this.waiting.splice(this.waiting.indexOf(holder), 1);
      holder.start();
    }
  }

  private conflict(a: Holder, b: Holder): boolean {
    return a.claims.some((x) =>
      b.claims.some((y) => (x.exclusive || y.exclusive) && (isInside(x.path, y.path, this.platform) || isInside(y.path, x.path, this.platform))),
    );
  }
}
