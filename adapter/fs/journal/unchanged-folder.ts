/**
 * One lstat(2) where a question takes several: whether any name was made or removed in a folder
 * since it was last looked at in full. Every recorded call asks whether its group is still open
 * and, after its append, whether an undo of the group began (LocalJournal.isOpen, late-records.ts);
 * answered in full that is three existence checks (meta.json, the undo lock, undone.json). An undo,
 * by any version of the app, begins by making its lock in the group's folder, and a dropped group
 * takes the folder away: making or removing a name changes the folder's modification and change
 * times. Unchanged times answer "as before".
 *
 * A time tells a later change from an earlier one only once it is older than the clock's tick (a
 * few milliseconds, two seconds on FAT): a folder's stat is trusted only if its times were
 * SETTLED_MS old when it was taken. Until then (a group's first seconds, or just after anything
 * changed in it), and whenever the stat differs, the full answer is asked again. The stat is taken
 * before the full answer, so a change during it shows next time.
 */
import fs from 'node:fs';

export const SETTLED_MS = 2_000;
/** Folders remembered at once (groups recorded into lately; any may be looked at in full again). */
const MAX_KEPT = 256;

/** A folder looked at: gone, as when it was last found so, or to be asked in full (then remembered if the answer allows). */
export type FolderLook = 'gone' | 'unchanged' | { dir: string; stat: fs.Stats; at: number };

export class UnchangedFolders {
  private readonly kept = new Map<string, fs.Stats>();

  constructor(private readonly now: () => number = Date.now) {}

  look(dir: string): FolderLook {
    const at = this.now();
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
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
    if (look.at - Math.max(look.stat.mtimeMs, look.stat.ctimeMs) < SETTLED_MS) {
      this.kept.delete(look.dir);
      return;
    }
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    this.kept.set(look.dir, look.stat);
  }
}
