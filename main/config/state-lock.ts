/**
 * One writer at a time for a state file several processes change (the server, the tray, the
 * CLI): a lock file made with O_EXCL beside it, `.<name>.lock`, held while the file is read,
 * changed and written. Calls in one process queue behind each other first, so they never wait on
 * their own lock. A lock older than LOCK_STALE_MS was left by a writer that died, and is taken over.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';

const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 15_000;
const inProcess = new Map<string, Promise<unknown>>();

/** Runs `work` holding `file`'s lock; `locked` words the error when another holds it too long. */
export function withStateLock<T>(file: string, work: () => Promise<T> | T, locked: (lock: string) => Error): Promise<T> {
  const run = (inProcess.get(file) ?? Promise.resolve()).then(
    () => holding(file, work, locked),
    () => holding(file, work, locked),
  );
  inProcess.set(
    file,
    run.catch(() => undefined),
  );
  return run;
}

async function holding<T>(file: string, work: () => Promise<T> | T, locked: (lock: string) => Error): Promise<T> {
  const lock = path.join(path.dirname(file), `.${path.basename(file)}.lock`);
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await acquire(lock, locked);
  try {
    return await work();
  } finally {
    await fsp.rm(lock, { force: true });
  }
}

async function acquire(lock: string, locked: (lock: string) => Error): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await fsp.open(lock, 'wx', 0o600);
      await handle.writeFile(`${process.pid} ${randomBytes(4).toString('hex')}\n`);
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A writer that died holding the lock must not block everyone forever.
    const stat = await fsp.stat(lock).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) {
      await fsp.rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw locked(lock);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}
