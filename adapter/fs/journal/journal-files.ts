/**
 * The journal on disk, in the app's data folder (owner-only, 0700 folders and 0600 files):
 *
 *   journal/groups/<id>/meta.json      who and when
 *   journal/groups/<id>/records.jsonl  one record per line, appended as changes happen
 *   journal/groups/<id>/blobs/<n>      the bytes of pre-images
 *   journal/groups/<id>/undoing        held while an undo of the group runs (undo-lock.ts)
 *   journal/groups/<id>/undone.json    the outcome, once the owner undid the group, and how many bytes of its records the undo read
 *   journal/dropped.jsonl              groups dropped to stay within the bound
 *
 * A group's folder is made whole under a temporary name (groups/.new-<id>, its meta.json written
 * and synced) and renamed into place, and undone.json is written to a temporary name and renamed:
 * a crash never leaves either empty. A .new-<id> a crash left is never listed, but counts toward
 * the journal's size: the first group a process opens removes those a minute old (another
 * process's, still being made, is younger by far). A group whose meta.json cannot be read all
 * the same (left by an earlier version, or a damaged disk) is listed as damaged.
 *
 * Ids sort by time (20260131-142501123-9f3a: the date, the time to the millisecond, a tag). A group read back is folded from its records: the
 * first pre-image and the last stamp of each path, the first and last state of each repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DroppedGroup, UndoOutcome } from '../../contract/journal.js';
import { fold, type FoldedGroup, type GroupMeta, type JournalRecord } from './folded-group.js';
import { noteDropped, readDropped } from './dropped-list.js';
import { ownBlobsOnly } from './own-blobs.js';
import { UnchangedFolders } from './unchanged-folder.js';
import { abandoned, LOCK_NAME, lockUndo, type UndoLock } from './undo-lock.js';

export const GROUP_ID = /^\d{8}-\d{9}-[0-9a-f]{4}$/;
/** A group folder still being made after this long was left by a crash (making one takes milliseconds). */
const UNFINISHED_AFTER_MS = 60_000;
/** Records files kept open at once (one per group being recorded into). */
const MAX_OPEN = 16;

/** A group's folder and the files in it looked at on every call. */
type GroupPlaces = { dir: string; meta: string; lock: string; undone: string };

export class JournalFiles {
  private readonly appending = new Map<string, number>();
  private readonly places = new Map<string, GroupPlaces>();

  private readonly folders: UnchangedFolders;

  /** `clock`: what the group folders' times are judged settled against (unchanged-folder.ts; tests move it on). */
  constructor(
    readonly root: string,
    clock: () => number = Date.now,
  ) {
    this.folders = new UnchangedFolders(clock);
  }

  groupDir(id: string): string {
    return this.placesOf(id).dir;
  }

  /** A group's folder and the files looked at on every call, worked out once per group (each call asks several times). */
  private placesOf(id: string): GroupPlaces {
    let places = this.places.get(id);
    if (places) return places;
    if (!GROUP_ID.test(id)) throw new Error(`${id} is not a change group id`);
    const dir = path.join(this.root, 'groups', id);
    places = { dir, meta: path.join(dir, 'meta.json'), lock: path.join(dir, LOCK_NAME), undone: path.join(dir, 'undone.json') };
    // Bounded: a server that runs for months sees many groups; any may be worked out again.
    if (this.places.size >= 256) this.places.clear();
    this.places.set(id, places);
    return places;
  }

  blobs(id: string): string {
    return path.join(this.groupDir(id), 'blobs');
  }

  /** Makes a group's folder: answers the bytes it holds (its meta.json). */
  async create(meta: GroupMeta): Promise<number> {
    const groups = path.join(this.root, 'groups');
    const text = JSON.stringify(meta);
    const making = path.join(groups, `.new-${meta.id}`);
    await fs.promises.mkdir(path.join(making, 'blobs'), { recursive: true, mode: 0o700 });
    for (const dir of [this.root, groups]) await fs.promises.chmod(dir, 0o700);
    try {
      await writeSynced(path.join(making, 'meta.json'), text);
      await fs.promises.rename(making, this.groupDir(meta.id));
      return Buffer.byteLength(text);
    } catch (error) {
      await fs.promises.rm(making, { recursive: true, force: true });
      throw error;
    }
  }

  /** Removes group folders a crash left half made (groups/.new-<id>) at least `age` ms old. */
  async removeUnfinished(age = UNFINISHED_AFTER_MS): Promise<void> {
    const groups = path.join(this.root, 'groups');
    for (const name of await fs.promises.readdir(groups).catch(() => [] as string[])) {
      if (!name.startsWith('.new-')) continue;
      const made = await fs.promises.lstat(path.join(groups, name)).catch(() => null);
      if (made && Date.now() - made.mtimeMs >= age) await fs.promises.rm(path.join(groups, name), { recursive: true, force: true });
    }
  }

  exists(id: string): boolean {
    return GROUP_ID.test(id) && fs.existsSync(this.placesOf(id).meta);
  }

  /** Whether an undo of the group holds its lock (it is not dropped meanwhile). */
  undoing(id: string): boolean {
    return fs.existsSync(this.placesOf(id).lock);
  }

  undone(id: string): boolean {
    return fs.existsSync(this.placesOf(id).undone);
  }

  /**
   * Whether the group is there and no undo of it began (LocalJournal.isOpen, late-records.ts): one
   * lstat(2) while its folder is as when this last answered yes (unchanged-folder.ts), else the
   * three checks.
   */
  openForRecording(id: string): boolean {
    const look = this.folders.look(this.placesOf(id).dir);
    if (look === 'unchanged') return true;
    if (look === 'gone') return false;
    const open = this.exists(id) && !this.undoBegun(id);
    if (open) this.folders.remember(look);
    return open;
  }

  /** Whether an undo of the group began: its lock or its outcome exists (late-records.ts). */
  undoBegun(id: string): boolean {
    return this.undoing(id) || this.undone(id);
  }

  /** Whether no undo of the group runs: its lock is gone, or its holder died. */
  undoEnded(id: string): boolean {
    let holder: string;
    try {
      holder = fs.readFileSync(path.join(this.groupDir(id), LOCK_NAME), 'utf8');
    } catch {
      return true;
    }
    return abandoned(holder);
  }

  /** How many bytes of the group's records its undo read, or null when it was not undone. */
  async undoneThrough(id: string): Promise<number | null> {
    const text = await fs.promises.readFile(path.join(this.groupDir(id), 'undone.json'), 'utf8').catch(() => null);
    if (text === null) return null;
    let through: unknown;
    try {
      through = (JSON.parse(text) as { through?: unknown }).through;
    } catch {
      // Damaged: it cannot say which it read.
    }
    // An outcome that does not say (an earlier version's, a damaged one): none read, to be sure.
    return typeof through === 'number' ? through : 0;
  }

  /** Where the records file this process appends to ends (after its last append; for late-records.ts). */
  recordsEnd(id: string): number {
    const fd = this.appending.get(id);
    return fd === undefined ? 0 : fs.fstatSync(fd).size;
  }

  /** Appends records to a group's file as lines, in one write (a first change's pre-image and its stamp after come together); answers the bytes written. */
  append(id: string, records: readonly JournalRecord[]): number {
    // One open file per group this process records into, written synchronously: a line into the
    // page cache costs less than an open, a close or a thread-pool hop (a record is made on every change).
    let fd = this.appending.get(id);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.groupDir(id), 'records.jsonl'), 'a', 0o600);
      // Groups end by going quiet, unannounced: only the most recently used stay open.
      if (this.appending.size >= MAX_OPEN) void this.close(this.appending.keys().next().value!);
    } else this.appending.delete(id);
    this.appending.set(id, fd);
    let lines = '';
    for (const record of records) lines += `${JSON.stringify(record)}\n`;
    return fs.writeSync(fd, lines);
  }

  /** The name the next pre-image of a group read back from disk gets: one past the highest kept. */
  async nextBlob(id: string): Promise<number> {
    const names = await fs.promises.readdir(this.blobs(id)).catch(() => []);
    return names.reduce((next, name) => (/^\d+$/.test(name) ? Math.max(next, Number(name) + 1) : next), 0);
  }

  /** Done recording into a group (undone or dropped). */
  async close(id: string): Promise<void> {
    const fd = this.appending.get(id);
    this.appending.delete(id);
    if (fd !== undefined) fs.closeSync(fd);
  }

  /** `undone`: the outcome and how many bytes of the group's records the undo read (`through`), as JSON. */
  async markUndone(id: string, undone: string): Promise<void> {
    const temporary = path.join(this.groupDir(id), 'undone.json.new');
    await writeSynced(temporary, undone);
    await fs.promises.rename(temporary, path.join(this.groupDir(id), 'undone.json'));
  }

  /** Takes the group's undo lock (undo-lock.ts), or answers why not: another undo of it runs. */
  lockUndo(id: string): Promise<UndoLock> {
    return lockUndo(this.groupDir(id));
  }

  /** Every group id, oldest first. */
  async ids(): Promise<string[]> {
    const names = await fs.promises.readdir(path.join(this.root, 'groups')).catch(() => [] as string[]);
    return names.filter((name) => GROUP_ID.test(name)).sort();
  }

  /** Throws DamagedGroup when its meta.json or undone.json cannot be read. */
  async read(id: string): Promise<FoldedGroup> {
    const dir = this.groupDir(id);
    // A meta.json missing from a group's folder is as damaged as an empty one (the folder itself gone is not).
    const metaText = await fs.promises.readFile(path.join(dir, 'meta.json'), 'utf8').catch((error: unknown) => {
      if (fs.existsSync(dir)) return '';
      throw error;
    });
    const meta = parsed<GroupMeta>(metaText, id, 'meta.json', (m) => typeof m.client === 'string' && typeof m.startedAt === 'string');
    const undoText = await fs.promises.readFile(path.join(dir, 'undone.json'), 'utf8').catch(() => null);
    const undone = undoText
      ? parsed<UndoOutcome & { through?: unknown }>(undoText, id, 'undone.json', (u) => typeof u.appliedAt === 'string' && Array.isArray(u.restored))
      : null;
    const records = await fs.promises.readFile(path.join(dir, 'records.jsonl')).catch(() => Buffer.alloc(0));
    // An undone group is what its undo read: records appended after, by a change under way when it began, went on to another group (late-records.ts).
    const through = typeof undone?.through === 'number' ? Math.min(undone.through, records.length) : records.length;
    const group: FoldedGroup = {
      meta,
      paths: new Map(),
      repositories: new Map(),
      tools: [],
      lastAt: meta.startedAt,
      bytes: await sizeOf(dir),
      recordBytes: through,
    };
    for (const line of records.subarray(0, through).toString('utf8').split('\n')) {
      // A line cut by a crash is the last one: what was complete before it stands.
      let record: JournalRecord;
      try {
        record = JSON.parse(line, ownBlobsOnly) as JournalRecord;
      } catch {
        continue;
      }
      fold(group, record);
    }
    if (undone) {
      const { through: _through, ...undo } = undone;
      group.undo = undo;
    }
    return group;
  }

  /** A group whose files cannot be read, as a group with nothing in it (to list it, and to drop it). */
  async damaged(id: string): Promise<FoldedGroup> {
    const startedAt = `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13, 15)}.${id.slice(15, 18)}Z`;
    return {
      meta: { id, client: '(unknown)', startedAt },
      paths: new Map(),
      repositories: new Map(),
      tools: [],
      lastAt: startedAt,
      bytes: await sizeOf(this.groupDir(id)),
    };
  }

  /** Removes a group, and says so in dropped.jsonl. */
  async drop(group: FoldedGroup, now: string): Promise<void> {
    await fs.promises.rm(this.groupDir(group.meta.id), { recursive: true, force: true });
    await noteDropped(this.root, { id: group.meta.id, client: group.meta.client, startedAt: group.meta.startedAt, files: group.paths.size, droppedAt: now });
  }

  dropped(): Promise<DroppedGroup[]> {
    return readDropped(this.root);
  }

  /** Whether a group's records were written within `ms` (a group another server may be recording into). */
  writtenWithin(id: string, ms: number, now: number): boolean {
    const stat = fs.statSync(path.join(this.groupDir(id), 'records.jsonl'), { throwIfNoEntry: false });
    return stat !== undefined && now - stat.mtimeMs < ms;
  }

  /** Bytes the journal holds on disk; a group in `known` counted as its size there (one this process records into: not walked again). */
  total(known: ReadonlyMap<string, number> = new Map()): Promise<number> {
    return sizeOf(this.root, (dir, name) => (dir === path.join(this.root, 'groups') ? known.get(name) : undefined));
  }
}

/** A group's file that cannot be read (empty or cut short by a crash, or damaged). */
export class DamagedGroup extends Error {}

function parsed<T extends object>(text: string, id: string, name: string, whole: (value: T) => boolean): T {
  let value: T | null = null;
  try {
    value = JSON.parse(text) as T;
  } catch {
    // Cut short or empty: damaged.
  }
  if (value !== null && typeof value === 'object' && whole(value)) return value;
  throw new DamagedGroup(`change group ${id} is damaged (its ${name} cannot be read, as after a crash while it was written): it cannot be shown or undone`);
}

/** Writes a new owner-only file and syncs it to disk (before it is renamed into place). */
async function writeSynced(file: string, text: string): Promise<void> {
  const handle = await fs.promises.open(file, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Bytes of the files under `dir`; `counted` answers an entry's size where it is known already (it is not walked). */
async function sizeOf(dir: string, counted: (dir: string, name: string) => number | undefined = () => undefined): Promise<number> {
  let total = 0;
  const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    total += counted(dir, entry.name) ?? (entry.isDirectory() ? await sizeOf(full, counted) : (await fs.promises.lstat(full).catch(() => ({ size: 0 }))).size);
  }
  return total;
}
