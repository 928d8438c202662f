/**
 * Watches, for a running bubblewrap sandbox, the places its plan covers (read-only or hidden) in
 * folders the model may write, and says when one is renamed over or removed outside: the kernel
 * then takes that mount off inside (a mount on a name that is replaced is detached in every other
 * mount namespace), and the command could write what was read-only. The owner's own git does this
 * to `.git/config` (`git config`, `git remote add` write a new file and rename it over the old),
 * after which a process handle could set `core.hooksPath`. The launch (run-command.ts) stops the
 * command then. A place is lost when an event names it (a rename or a removal: inotify's) and it
 * is then gone or another file: its device, inode and birth time (the change time where the
 * filesystem keeps no birth time) are not those it had, as an inode number freed is soon given
 * again. The event alone does not say so: the sandboxes started at once (a git tool's three
 * reads) watch the same folders, and Node hands every watcher of a folder the events of the one
 * inotify watch they share, including those queued before it began, such as another sandbox's
 * bwrap making a place this one already found made. One that was not there is taken as it first
 * appears (bwrap makes the empty ones it covers missing places with); one that is gone at two
 * events, not there in between, was made and taken away. A write into a covered file changes
 * nothing of this. One inotify watch a folder; a folder that cannot be watched is passed by.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxPlan } from '../../contract/sandbox.js';
import type { GuardPlan } from './guard-plan.js';

/** Starts watching the places `guard` (guardPlan of `plan`) finds in writable folders; `lost` is called once, with the first covered place replaced or removed. The result stops watching. */
export function watchCovers(plan: SandboxPlan, guard: GuardPlan, lost: (place: string) => void): () => void {
  const covers = new Set(plan.entries.filter((entry) => entry.access === 'read' || entry.access === 'hidden').map((entry) => entry.path));
  const names = new Map<string, Set<string>>();
  for (const { folder, place } of guard.checks) {
    if (!covers.has(place)) continue;
    const dir = guard.folders[folder]!;
    names.set(dir, (names.get(dir) ?? new Set()).add(path.posix.basename(place)));
  }
  const watchers: fs.FSWatcher[] = [];
  /** Each place's file as the sandbox covers it: null while missing (bwrap makes it), 'gone' once an event found it so. */
  const there = new Map<string, string | null | 'gone'>();
  let done = false;
  const stop = () => {
    done = true;
    for (const watcher of watchers.splice(0)) watcher.close();
  };
  for (const [dir, inside] of names) {
    for (const name of inside) there.set(path.posix.join(dir, name), identity(path.posix.join(dir, name)));
    try {
      // Watched as `dir/.`: an event on the folder itself (moved: its mounts go with it) is then
      // named `.` (libuv names it by the watched path's last part), never a name inside it, such as
      // the `.git` placeholder a `.git` folder holds.
      const watcher = fs.watch(`${dir}/.`, { persistent: false }, (event, name) => {
        const place = name === null || name === '.' ? '' : path.posix.join(dir, String(name));
        if (done || event !== 'rename' || !there.has(place)) return;
        const [was, now] = [there.get(place), identity(place)];
        if (was === null || (was === 'gone' && now !== null)) there.set(place, now ?? 'gone');
        else if (now !== was) {
          stop();
          lost(place);
        }
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // Gone already (the guard refuses the start then), or no inotify watches left.
    }
  }
  return stop;
}

/** The file at `place` told apart from any that was there before (null: none). */
function identity(place: string): string | null {
  const stat = fs.lstatSync(place, { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.birthtimeNs || stat.ctimeNs}` : null;
}

/** Why a sandbox was stopped when `place`'s cover came off. */
export function coverLost(place: string): string {
  return `${place} was replaced or removed outside the sandbox (the owner's git does that to .git/config), which takes its read-only cover off inside; what the command wrote there before the stop stays, so check it; running the command again covers it anew`;
}

/** The line a command stopped so ends its stderr with. */
export function coverLostNote(place: string): string {
  return `\nchatgpt-mcp sandbox: stopped: ${coverLost(place)}\n`;
}
