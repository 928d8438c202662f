/**
 * One lstat(2) where a question takes several: whether any name was made or removed in a folder
 * since it was last looked at in full. Every recorded call asks whether its group is still open
 * and, after its append, whether an undo of the group began (LocalJournal.isOpen, late-records.ts);
 * answered in full that is three existence checks (meta.json, the undo lock, undone.json). An undo,
 * by any version of the app, begins by making its lock in the group's folder, and a dropped group
 * takes the folder away: making or removing a name changes the folder's modification and change
 * times. Unchanged times answer "as before".
 *
 * A time tells a later change from an earlier one only once it is older than the clock's tick: a
 * folder's stat is trusted only if its times were SETTLED_MS old when it was taken. Until then (a
 * group's first seconds, or just after anything changed in it), and whenever the stat differs, the
 * full answer is asked again. The stat is taken before the full answer, so a change during it shows
 * next time. Never trusted: a folder whose times are whole seconds (a filesystem that keeps no
 * finer ones, FAT, HFS+, ext4 with small inodes, where a change in the same second as the last
 * looks like none, the more so if this computer's clock runs ahead of the one stamping the files),
 * and anything remembered before this computer's clock was set back or forward (the wall clock
 * moved against the monotonic one). The folder is looked at through a link to it (stat, not lstat).
 */
import fs from 'node:fs';

export const SETTLED_MS = 2_000;
/** Folders remembered at once (groups recorded into lately; any may be looked at in full again). */
const MAX_KEPT = 256;
/** How far the wall clock may move against the monotonic one before all that was remembered is forgotten. */
const CLOCK_STEP_MS = 100;

/** A folder looked at: gone, as when it was last found so, or to be asked in full (then remembered if the answer allows). */
export type FolderLook = 'gone' | 'unchanged' | { dir: string; stat: fs.Stats; at: number };

export class UnchangedFolders {
  private readonly kept = new Map<string, fs.Stats>();
  /** The wall clock less the monotonic one when the folders kept were remembered. */
  private offset = 0;

  constructor(private readonly now: () => number = Date.now) {}

  look(dir: string): FolderLook {
    const at = this.now();
    if (Math.abs(at - performance.now() - this.offset) > CLOCK_STEP_MS) this.kept.clear();
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat) {
      this.kept.delete(dir);
      return 'gone';
    }
    const known = this.kept.get(dir);
    const same = known && known.ino === stat.ino && known.dev === stat.dev && known.mtimeMs === stat.mtimeMs && known.ctimeMs === stat.ctimeMs;
    return same ? 'unchanged' : { dir, stat, at };
  }

  /** After a look that had to be answered in full, and was answered as the caller wants it kept: later looks that find the same stat say 'unchanged'. */
  remember(look: FolderLook): void {
    if (typeof look === 'string') return;
    const { stat, at, dir } = look;
    const settled = at - Math.max(stat.mtimeMs, stat.ctimeMs) >= SETTLED_MS;
    const wholeSeconds = stat.mtimeMs % 1000 === 0 && stat.ctimeMs % 1000 === 0;
    if (!settled || wholeSeconds || !stat.isDirectory()) {
      this.kept.delete(dir);
      return;
    }
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    if (this.kept.size === 0) this.offset = at - performance.now();
    this.kept.set(dir, stat);
  }
}
