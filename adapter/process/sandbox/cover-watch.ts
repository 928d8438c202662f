/**
 * Watches, for a running bubblewrap sandbox, the places its plan covers (read-only or hidden) in
 * folders the model may write, and says when one is renamed over or removed outside: the kernel
 * then takes that mount off inside (a mount on a name that is replaced is detached in every other
 * mount namespace), and the command could write what was read-only. The owner's own git does this
 * to `.git/config` (`git config`, `git remote add` write a new file and rename it over the old),
 * after which a process handle could set `core.hooksPath`. The launch (run-command.ts) stops the
 * command then. A place is lost on any rename or removal of its name (inotify's, not an inode
 * compared: one freed is soon given again); one that was not there is taken as it first appears
 * (bwrap makes the empty ones it covers missing places with). A write into a covered file changes
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
  /** Whether each place is there (a missing one becomes so when bwrap makes it). */
  const there = new Map<string, boolean>();
  let done = false;
  const stop = () => {
    done = true;
    for (const watcher of watchers.splice(0)) watcher.close();
  };
  for (const [dir, inside] of names) {
    for (const name of inside) there.set(path.posix.join(dir, name), exists(path.posix.join(dir, name)));
    try {
      // Watched as `dir/.`: an event on the folder itself (moved: its mounts go with it) is then
      // named `.` (libuv names it by the watched path's last part), never a name inside it, such as
      // the `.git` placeholder a `.git` folder holds.
      const watcher = fs.watch(`${dir}/.`, { persistent: false }, (event, name) => {
        const place = name === null || name === '.' ? '' : path.posix.join(dir, String(name));
        if (done || event !== 'rename' || !there.has(place)) return;
        if (!there.get(place)) there.set(place, true);
        else {
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

function exists(place: string): boolean {
  try {
    fs.lstatSync(place);
    return true;
  } catch {
    return false;
  }
}

/** The line a command stopped so ends its stderr with. */
export function coverLostNote(place: string): string {
  return `\nchatgpt-mcp sandbox: stopped: ${place} was replaced or removed outside the sandbox (the owner's git does that to .git/config), which takes its read-only cover off inside; what the command wrote there before the stop stays, so check it; running the command again covers it anew\n`;
}
