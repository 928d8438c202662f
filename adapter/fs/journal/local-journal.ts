/**
 * The change journal on this computer (adapter/contract/journal.ts). Recording is cheap on the
 * common path: the first time a group sees a file, its pre-image is a hard link to the old inode
 * when the writer hands it over just before replacing it (linked-image.ts), else one copy (a
 * reflink where the filesystem has them); each change adds a stat and a line. The bound is kept by
 * dropping whole groups, oldest first; a pre-image too large for it is not kept, and says so.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { adapterError } from '../../contract/errors.js';
import type { RepositoryState } from '../../contract/git.js';
import type { ExistingFile } from '../../contract/files.js';
import type { ChangeJournal, GroupDetail, GroupSummary, JournalPaths, UndoGuards, UndoOutcome } from '../../contract/journal.js';
import {
  blobsOf,
  capture,
  lstatOrNull,
  missingFolders,
  unkept,
  sameStamp,
  shallowStamp,
  stamp,
  wholeFolder,
  type Image,
  type KeepBytes,
  type Stamp,
} from './images.js';
import { DamagedGroup, JournalFiles } from './journal-files.js';
import { fold, replacesFolder, summarize, type FoldedGroup, type JournalRecord } from './folded-group.js';
import { restampEarlierGroups } from './earlier-groups.js';
import { applyUndo, describeGroup, toRetry, withRetry } from './journal-undo.js';
import { LateRecords, type RecordingGroup } from './late-records.js';
import { copySeen } from './kept-copy.js';
import { changedMeanwhile, coveringFolders } from './covering-folders.js';
import { inConfirmedParent } from './confirmed-entry.js';
import { linkReplaced, sealLinked, unshareLeftovers } from './linked-image.js';
import { JournalBound } from './journal-bound.js';

export interface JournalOptions {
  /** The journal folder (in the app's data folder). */
  dir: string;
  maxBytes: number;
  now?: () => Date;
  /** Told when changes made during an undo of their group could not be carried on to a new group (they then stay in the undone group). */
  onError?: (error: Error) => void;
}

/** A group unused this long leaves memory (its files stay, and a late record reads it back): a server that runs for weeks holds only its recent groups. */
export const EVICT_AFTER_MS = 15 * 60_000;
/** Why a protected file's bytes are not in a pre-image (JournalPaths.secret). */
const PROTECTED = "the owner's rules protect it (a secret), so its bytes are never copied into the journal";

/**
 * A group this process records into, folded as it grows. `unwritten`: pre-images of handed-over
 * files, folded already and written with the next stamps after (a pre-image without its stamp
 * after is never undone, so a crash between them loses nothing undo could have used).
 */
type LiveGroup = FoldedGroup & { blobCount: number; usedAt: number; unwritten: JournalRecord[] };

export class LocalJournal implements ChangeJournal {
  private readonly files: JournalFiles;
  /** Groups this process recorded into lately. */
  private readonly live = new Map<string, LiveGroup>();
  private readonly reading = new Map<string, Promise<LiveGroup>>();
  /** Files of a handover request not handed over yet (by group and path): what each was. */
  private readonly waiting = new Map<string, Stamp>();
  /** Folders of a call found changed by something else before it (by group and path): not stamped again after it. */
  private readonly stale = new Set<string>();
  private readonly bound: JournalBound;
  private lastOpened = 0;
  private leftovers: Promise<void> | null = null;
  private readonly now: () => Date;
  /** Records appended to a group after its undo began, carried on to another group. */
  private readonly late: LateRecords;

  constructor(private readonly options: JournalOptions) {
    this.files = new JournalFiles(options.dir);
    this.now = options.now ?? (() => new Date());
    this.bound = new JournalBound(
      this.files,
      options.maxBytes,
      async (group) => {
        await this.files.close(group.meta.id);
        await this.files.drop(group, this.now().toISOString());
        this.live.delete(group.meta.id);
      },
      () => new Map([...this.live].map(([id, group]) => [id, group.bytes])),
    );
    this.late = new LateRecords(this.files, {
      open: async (client, startedAt) => this.live.get(await this.open(client, startedAt))!,
      record: (group, records) => this.record(group, ...records),
      keep: (group, file, seen) => this.keeper(group)(file, seen),
      failed: (error) => options.onError?.(error),
    });
  }

  /** `startedAt`: the time a group carrying on late records (late-records.ts) is dated, among the others, by the changes in it. */
  async open(client: string, startedAt?: Date): Promise<string> {
    // Once per process; a failure here leaves a file refusing writes as shared, or a half-made group's folder, not the journal stopped.
    this.leftovers ??= Promise.all([
      this.files
        .ids()
        .then((ids) => unshareLeftovers(ids.map((id) => this.files.blobs(id))))
        .catch(() => {}),
      this.files.removeUnfinished().catch(() => {}),
    ]).then(() => {});
    await this.leftovers;
    await this.bound.known();
    // Ids sort by time, to the millisecond: this process never gives two groups the same one (one dated earlier has its tag besides).
    const time = startedAt ?? new Date(Math.max(this.now().getTime(), this.lastOpened + 1));
    if (!startedAt) this.lastOpened = time.getTime();
    const stamp = time.toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 18);
    const id = `${stamp.slice(0, 15)}${stamp.slice(15)}-${randomBytes(2).toString('hex')}`;
    const meta = { id, client, startedAt: time.toISOString() };
    const made = await this.files.create(meta);
    this.evictIdle(time.getTime());
    const group: LiveGroup = {
      meta,
      paths: new Map(),
      repositories: new Map(),
      tools: [],
      lastAt: meta.startedAt,
      bytes: 0,
      blobCount: 0,
      usedAt: time.getTime(),
      unwritten: [],
    };
    this.live.set(id, group);
    // Its meta.json counts toward the bound as the group's records do (a group read back from disk counts it too).
    this.bound.opened(group, made);
    return id;
  }

  /**
   * A group takes no new call once an undo of it began (late-records.ts: what one under way then
   * records goes on elsewhere), nor once it holds half the bound: the bound drops whole groups
   * and never the one being recorded into, whose records would otherwise grow past it.
   */
  isOpen(id: string): boolean {
    const group = this.live.get(id);
    return !!group && !this.bound.full(group) && this.files.openForRecording(id);
  }

  async before(id: string, tool: string, request: JournalPaths): Promise<void> {
    const group = this.liveGroup(id) ?? (await this.group(id));
    // A path the group already holds had its missing folders recorded with it; one that exists has none.
    for (const target of request.paths.flatMap((p) => (group.paths.has(p) ? [] : [p]))) {
      const stat = lstatOrNull(target);
      if (request.handover && stat?.isFile()) {
        this.waiting.set(`${id}\0${target}`, shallowStamp(target, stat));
        continue;
      }
      // The outermost folder missing above it: a recursive mkdir, or a patch adding a file, makes it too.
      const top = stat ? null : (missingFolders(target)[0] ?? null);
      if (top !== null && !group.paths.has(top)) await this.take(group, tool, top, request, lstatOrNull(top));
      if (!group.paths.has(target)) await this.take(group, tool, target, request, stat);
    }
    for (const dir of await changedMeanwhile(group, request.paths)) this.stale.add(`${id}\0${dir}`);
  }

  /**
   * One path's pre-image and stamp, from one lstat (again through its confirmed parent, where it
   * exists: inConfirmedParent). A folder taken whole is sized first: one larger than a single
   * pre-image may be keeps what fits without dropping older groups for it (it could not be kept
   * whole anyway).
   */
  private async take(group: LiveGroup, tool: string, target: string, { depth, secret }: JournalPaths, stat: fs.Stats | null): Promise<void> {
    const preImage = async (entry: string, seen: fs.Stats | null) => {
      // A folder taken whole is stamped with what it holds (one made again in its place can have its inode number).
      const whole = depth === 'tree' && seen?.isDirectory() ? await wholeFolder(entry, seen) : null;
      const evict = !whole || this.bound.mayEvictFor(whole.bytes);
      const image = await capture(entry, depth, this.keeper(group, evict, secret), undefined, seen, 0, target).catch((error: Error) => unkept(error));
      return { was: whole?.stamp ?? shallowStamp(entry, seen), image };
    };
    const { was, image } = await (stat ? inConfirmedParent(target, preImage) : preImage(target, null)).catch((error: Error) => ({
      was: shallowStamp(target, stat),
      image: unkept(error),
    }));
    this.record(group, { k: 'pre', t: tool, p: target, i: this.withinBound(group, image), w: was, at: this.now().toISOString() });
  }

  /** A folder whose record alone (all the names it holds) would take more than a pre-image may: not taken whole after all, its blobs removed. */
  private withinBound(group: LiveGroup, image: Image): Image {
    if (image.type !== 'directory' || !image.entries) return image;
    const why = this.bound.recordTooLarge(Buffer.byteLength(JSON.stringify(image)));
    if (why === null) return image;
    for (const blob of blobsOf(image)) {
      const file = path.join(this.files.blobs(group.meta.id), blob);
      this.bound.counted(group, -(fs.lstatSync(file, { throwIfNoEntry: false })?.size ?? 0));
      fs.rmSync(file, { force: true });
    }
    const { entries: _entries, ...folder } = image;
    return { ...folder, why };
  }

  async handOver(id: string, tool: string, target: string, entry: string, file: ExistingFile, replacing: boolean): Promise<void> {
    const was = this.waiting.get(`${id}\0${target}`);
    if (!was) return;
    this.waiting.delete(`${id}\0${target}`);
    const group = this.liveGroup(id) ?? (await this.group(id));
    let image: Image | null = null;
    if (replacing && (this.bound.roomNow(file.size) ?? (await this.bound.room(group, file.size))) === null) {
      const name = String(group.blobCount++);
      image = linkReplaced(entry, path.join(this.files.blobs(id), name), file, name);
      if (image) this.bound.counted(group, file.size);
    }
    image ??= await capture(entry, 'shallow', this.keeper(group)).catch((error: Error) => unkept(error));
    const record: JournalRecord = { k: 'pre', t: tool, p: target, i: image, w: was, at: this.now().toISOString() };
    fold(group, record);
    group.unwritten.push(record);
  }

  async after(id: string, tool: string, paths: readonly string[], written: ReadonlyMap<string, string> = new Map()): Promise<void> {
    const group = this.liveGroup(id) ?? (await this.group(id));
    const at = this.now().toISOString();
    // A file never handed over was not changed by the write (it stopped before): nothing to
    // record, unless something else changed it meanwhile, which undo then says it cannot put back.
    for (const p of paths) {
      const was = this.waiting.get(`${id}\0${p}`);
      this.waiting.delete(`${id}\0${p}`);
      if (was && !sameStamp(was, shallowStamp(p)))
        this.record(group, {
          k: 'pre',
          t: tool,
          p,
          i: { type: 'other', why: 'it changed during the write, before its earlier state was kept' },
          w: was,
          at,
        });
    }
    // The path itself, and recorded folders holding it whose stamp covers what is inside them, but
    // those something else changed before this call (covering-folders.ts).
    const touched = new Set(paths);
    for (const dir of coveringFolders(group, paths)) if (!this.stale.delete(`${id}\0${dir}`)) touched.add(dir);
    const posts: JournalRecord[] = [];
    try {
      for (const target of touched) {
        const info = group.paths.get(target);
        if (!info) continue;
        const linked = info.pre.type === 'file' && info.pre.linked && !info.seal ? info.pre.blob : null;
        const seal = linked ? { h: await sealLinked(path.join(this.files.blobs(id), linked)) } : {};
        // A folder undo would take away (a file's or link's replacement too) is stamped with all it holds.
        const now = shallowStamp(target);
        const s = now.type === 'directory' && (info.tree || replacesFolder(info.pre)) ? await stamp(target, true) : now;
        const sha = s.type === 'file' ? written.get(target) : undefined;
        posts.push({ k: 'post', t: tool, p: target, s, ...seal, ...(sha ? { c: sha } : {}), at });
      }
    } finally {
      // One write for the call: the pre-images handed over during it (and any a failed call left) and the stamps after.
      this.record(group, ...group.unwritten.splice(0), ...posts);
    }
  }

  async repository(id: string, tool: string, topLevel: string, before: RepositoryState, after: RepositoryState): Promise<void> {
    this.record(await this.group(id), { k: 'git', t: tool, r: topLevel, b: before, a: after, at: this.now().toISOString() });
  }

  async list(): Promise<{ groups: GroupSummary[]; dropped: Awaited<ReturnType<JournalFiles['dropped']>> }> {
    const groups: GroupSummary[] = [];
    for (const id of (await this.files.ids()).reverse()) {
      const group = await this.files.read(id).then(
        (read) => summarize(read),
        async (error: unknown) => (error instanceof DamagedGroup ? summarize(await this.files.damaged(id), true) : null),
      );
      if (group) groups.push(group);
    }
    return { groups, dropped: (await this.files.dropped()).reverse() };
  }

  async show(id: string): Promise<GroupDetail> {
    return describeGroup(await this.load(id), this.files.blobs(id));
  }

  async apply(id: string, guards: UndoGuards): Promise<UndoOutcome> {
    await this.load(id);
    // One undo of a group at a time, whoever asks (the tray and the CLI are separate processes).
    const lock = await this.files.lockUndo(id);
    if ('busy' in lock) {
      // Undone already or not: another undo (or a try again of what it failed to put back) runs now.
      throw adapterError(
        'PRECONDITION_FAILED',
        'undo',
        'these changes are being undone right now (by the tray or another "undo apply"); try "undo show" when it is done',
      );
    }
    try {
      const group = await this.load(id);
      // Undone already: only what that undo failed to put back (and left as it was) is tried again.
      const retry = group.undo ? toRetry(group.undo) : undefined;
      if (group.undo && !retry?.size) throw adapterError('PRECONDITION_FAILED', 'undo', `these changes were already undone (${group.undo.appliedAt})`);
      const again = await applyUndo(group, this.files.blobs(id), guards, this.now().toISOString(), retry);
      await restampEarlierGroups(this.files, group, again, again.appliedAt).catch(() => {});
      const outcome = group.undo ? withRetry(group.undo, retry!, again) : again;
      // `through`: how many bytes of the group's records the undo read (late-records.ts). Counted before it is written.
      const undone = JSON.stringify({ ...outcome, through: group.recordBytes ?? 0 });
      await this.bound.fit(id, Buffer.byteLength(undone));
      await this.files.markUndone(id, undone);
      this.live.delete(id);
      await this.files.close(id);
      return outcome;
    } finally {
      await lock.release();
    }
  }

  private async load(id: string): Promise<FoldedGroup> {
    if (!this.files.exists(id))
      throw adapterError('NOT_FOUND', 'undo', `no change group ${id} (it was undone and dropped, or never existed): "undo list" shows them`);
    return this.files.read(id).catch((error: unknown) => {
      throw error instanceof DamagedGroup ? adapterError('PRECONDITION_FAILED', 'undo', error.message) : error;
    });
  }

  /** A group in memory, without a promise's hop (the common case: every change asks). */
  private liveGroup(id: string): LiveGroup | undefined {
    const group = this.live.get(id);
    if (group) group.usedAt = this.now().getTime();
    return group;
  }

  /** A group open here: in memory, or read back from its files after it left memory (a call that began before it went idle). */
  private async group(id: string): Promise<LiveGroup> {
    let group = this.live.get(id);
    if (!group) {
      // An undone one too: a call under way when its undo began records into it still (late-records.ts).
      if (!this.files.exists(id)) throw new Error(`change group ${id} is not open here`);
      // One read back however many calls ask at once (each would number its pre-images from the same count).
      let reading = this.reading.get(id);
      if (!reading) {
        reading = (async () => ({ ...(await this.files.read(id)), blobCount: await this.files.nextBlob(id), usedAt: 0, unwritten: [] }))();
        this.reading.set(id, reading);
        void reading
          .then(
            (read) => this.live.set(id, read),
            () => {},
          )
          .finally(() => this.reading.delete(id));
      }
      group = this.live.get(id) ?? (await reading);
    }
    group.usedAt = this.now().getTime();
    return group;
  }

  private evictIdle(now: number): void {
    for (const [id, group] of this.live)
      if (now - group.usedAt > EVICT_AFTER_MS) {
        this.live.delete(id);
        void this.files.close(id);
      }
  }

  /** Done when records that reached a group after its undo began were carried on, and records past the bound dropped what they could (for tests). */
  async settled(): Promise<void> {
    await this.late.settled();
    await this.bound.trimmed();
  }

  /** Groups held in memory (for the tests of the bound on memory). */
  get liveGroups(): number {
    return this.live.size;
  }

  /** Appends records, then folds them (folding a handed-over pre-image again changes nothing: the first of a path counts). */
  private record(group: FoldedGroup, ...records: JournalRecord[]): void {
    if (records.length === 0) return;
    const bytes = this.files.append(group.meta.id, records);
    for (const record of records) fold(group, record);
    this.late.appended(group, records);
    this.bound.recorded(group, bytes);
  }

  /** Copies a file's bytes into the group, making room by dropping the oldest other groups (`evict`), or only where there is room. */
  private keeper(group: RecordingGroup, evict = true, secret?: JournalPaths['secret']): KeepBytes {
    return async (file, seen, at) => {
      if (at !== undefined && secret?.(at)) return { blob: null, why: PROTECTED };
      const why = await this.bound.room(group, seen.size, evict);
      if (why !== null) return { blob: null, why };
      const name = String(group.blobCount++);
      const blob = path.join(this.files.blobs(group.meta.id), name);
      try {
        await copySeen(file, seen, blob);
      } catch (error) {
        await fs.promises.rm(blob, { force: true });
        const { code, message } = error as NodeJS.ErrnoException;
        return { blob: null, why: code === 'ESTALE' ? message : `it could not be read (${code ?? message})` };
      }
      // Synchronous on purpose: a chmod and a stat cost less than their thread-pool hops.
      fs.chmodSync(blob, 0o600);
      this.bound.counted(group, fs.statSync(blob).size);
      return { blob: name };
    };
  }
}
