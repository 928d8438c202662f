/**
 * A first-come read/write lock. The fs tools hold it from the path check to the end of the
 * operation: reads share it, anything that changes the tree (write, mkdir, move, delete) holds
 * it alone. Without it a concurrent fs.move could swap a checked directory for a symlink
 * between the check and the use, and carry a read or write outside the roots.
 */
interface Waiter {
  exclusive: boolean;
  start(): void;
}

export class ReadWriteLock {
  private readers = 0;
  private writing = false;
  private readonly queue: Waiter[] = [];

  shared<T>(run: () => Promise<T>): Promise<T> {
    return this.acquire(false, run);
  }

  exclusive<T>(run: () => Promise<T>): Promise<T> {
    return this.acquire(true, run);
  }

  private acquire<T>(exclusive: boolean, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        Promise.resolve()
          .then(run)
          .then(resolve, reject)
          .finally(() => this.release(exclusive));
      };
      this.queue.push({ exclusive, start });
      this.pump();
    });
  }

  /** Starts waiters in arrival order; a reader behind a waiting writer waits too, so writers never starve. */
  private pump(): void {
    for (let next = this.queue[0]; next; next = this.queue[0]) {
      if (this.writing || (next.exclusive && this.readers > 0)) return;
      this.queue.shift();
      if (next.exclusive) this.writing = true;
      else this.readers++;
      next.start();
    }
  }

  private release(exclusive: boolean): void {
    if (exclusive) this.writing = false;
    else this.readers--;
    this.pump();
  }
}
