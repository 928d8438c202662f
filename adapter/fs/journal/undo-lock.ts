/**
 * A group's undo lock, groups/<id>/undoing: one undo of a group at a time, whoever asks (the
 * tray's and the CLI's are separate processes). It holds its process's pid and host, when it was
 * taken and a nonce, so no two locks are alike. It is written whole under a name of its own and
 * linked into place (link(2) fails when the name exists): a lock is never seen half written.
 *
 * A lock whose holder was a process of this computer that is gone (a crash during undo) is taken
 * over, by exactly one of the processes that find it so at once. Removing it and taking a new one
 * is not enough: one of two such processes could remove the lock the other just took. So each
 * first claims the dead lock, by linking its own lock under a name made from the dead lock's
 * content (undoing.taken-<hash>); only the one whose link succeeded removes it, and only that lock
 * (it reads it again first: nobody else may remove it, so it is still there or gone), then it
 * tries to take the lock as anyone would. A claim whose own process died before it removed the
 * lock is itself dead: it is claimed the same way, and its claimer may remove the lock. Claims go
 * with the lock they were for; a crash leaves one behind, in the group's folder, removed with it.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_NAME = 'undoing';

export type UndoLock = { release: () => Promise<void> } | { busy: string };

/** Takes the undo lock of the group in `dir`, or answers its holder (the lock's content). */
export async function lockUndo(dir: string): Promise<UndoLock> {
  const lock = path.join(dir, LOCK_NAME);
  const boot = bootId();
  const mine = JSON.stringify({
    pid: process.pid,
    host: os.hostname(),
    ...(boot ? { boot } : {}),
    at: new Date().toISOString(),
    nonce: randomBytes(8).toString('hex'),
  });
  const whole = path.join(dir, `.${LOCK_NAME}-${randomBytes(8).toString('hex')}`);
  await fs.promises.writeFile(whole, mine, { mode: 0o600, flag: 'wx' });
  try {
    // A few rounds: the lock can be released, or taken over, between looking and taking.
    let holder = '';
    for (let round = 0; round < 3; round++) {
      if (await linked(whole, lock)) return { release: () => release(lock, mine) };
      const seen = await contentOf(lock);
      if (seen === null) continue;
      holder = seen;
      if (!abandoned(holder) && !(await emptyAndOld(lock, holder))) return { busy: holder };
      const claim = await claimDead(dir, holder, whole);
      if (claim === 'taken') return { busy: holder };
      if (claim === 'gone') continue;
      if ((await contentOf(lock)) === holder) await fs.promises.rm(lock, { force: true });
      for (const name of claim) await fs.promises.rm(name, { force: true });
    }
    return { busy: holder };
  } finally {
    await fs.promises.rm(whole, { force: true });
  }
}

/**
 * Claims the removal of a dead lock (or of a dead claim of one): the claims this process made
 * and may remove with it, 'taken' when a live process claimed it first, 'gone' when its claim
 * was removed meanwhile (the claimer finished: look at the lock again).
 */
async function claimDead(dir: string, dead: string, whole: string): Promise<string[] | 'taken' | 'gone'> {
  const claim = path.join(dir, `${LOCK_NAME}.taken-${createHash('sha256').update(dead).digest('hex').slice(0, 24)}`);
  if (await linked(whole, claim)) return [claim];
  const claimer = await contentOf(claim);
  if (claimer === null) return 'gone';
  if (!abandoned(claimer)) return 'taken';
  const above = await claimDead(dir, claimer, whole);
  return Array.isArray(above) ? [claim, ...above] : above;
}

/** Links `whole` as `name`: false when `name` exists. */
async function linked(whole: string, name: string): Promise<boolean> {
  try {
    await fs.promises.link(whole, name);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function contentOf(file: string): Promise<string | null> {
  return fs.promises.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/** Removes the lock if it is still this one (a lock is never taken over from a live process, so it is). */
async function release(lock: string, mine: string): Promise<void> {
  if ((await contentOf(lock)) === mine) await fs.promises.rm(lock, { force: true });
}

/**
 * Whether an undo lock's (or claim's) holder was a process of this computer that no longer runs:
 * its pid is gone, or (Linux) it ran before the computer last started, whose pids are reused
 * after a reboot. An unreadable lock counts as held.
 */
export function abandoned(holder: string): boolean {
  let parsed: { pid?: unknown; host?: unknown; boot?: unknown } | null;
  try {
    parsed = JSON.parse(holder) as typeof parsed;
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.host !== os.hostname() || typeof parsed.pid !== 'number') return false;
  const boot = bootId();
  if (typeof parsed.boot === 'string' && boot && parsed.boot !== boot) return true;
  try {
    process.kill(parsed.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** An empty lock, which only an earlier version's crash while writing it leaves, once it is a minute old. */
async function emptyAndOld(lock: string, holder: string): Promise<boolean> {
  if (holder !== '') return false;
  const stat = await fs.promises.stat(lock).catch(() => null);
  return stat !== null && Date.now() - stat.mtimeMs > 60_000;
}

let boot: string | null | undefined;
/** This boot of the computer (Linux's boot_id), or null where it has none. */
export function bootId(): string | null {
  if (boot === undefined) {
    try {
      boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      boot = null;
    }
  }
  return boot;
}
