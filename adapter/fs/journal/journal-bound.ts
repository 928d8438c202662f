/**
 * The journal's bound (undo.maxBytes): what it holds on disk, pre-images and records alike, and
 * room made by dropping whole groups, oldest first, never the one being recorded into. So that
 * one group cannot outgrow it, a group holding half of it takes no new call (LocalJournal.isOpen):
 * the next starts another, and the full one is dropped in its turn.
 */
import { DamagedGroup, type JournalFiles } from './journal-files.js';
import type { FoldedGroup } from './folded-group.js';
import { toRetry } from './journal-undo.js';

/** A single pre-image may take at most this share of the bound. */
const LARGEST_SHARE = 4;
/** The share of the bound a folder too large to keep whole leaves free for the group's records. */
const RECORDS_SHARE = 16;
/** A group holding this share of the bound takes no new call. */
const GROUP_SHARE = 2;
/** A group whose records were written this recently may be another server's current one: others go first. */
const RECENT_MS = 60_000;
/** How often, at least, the size on disk is read again while recording (other servers sharing the journal grow it too). */
const REREAD_MS = 1_000;
/** ...and, once another server is seen writing and the journal is within this share of the bound, this often: that growth then soon passes it. */
const NEAR_SHARE = 4;
const NEAR_REREAD_MS = 100;
/** How long a server counts as seen writing after a read found the journal changed by more than this process did. */
const SHARED_FOR_MS = 10_000;
/** ...and at most this share of the time goes to reading it (a journal of many files takes long to walk). */
const REREAD_SHARE = 20;
/** How often a trim that ended past the bound looks again, a second apart. */
const RETRIES = 3;

export class JournalBound {
  /** The journal's size on disk as this process last knew it (other servers' growth is read back before it decides on room). */
  private total: number | null = null;
  private trimming: Promise<void> | null = null;
  /**
   * The group this process last recorded into: room is never made by dropping it. A trim runs
   * while calls go on, and they may go on into a newer group than the one it began for (that one
   * was full): the group being recorded into now is kept, not the one it began for.
   */
  private latest: string | null = null;
  /** Room made one at a time in this process (a pre-image's and the records' trimming would drop the same group twice). */
  private making: Promise<unknown> = Promise.resolve();
  private readAt = Date.now();
  private readMs = 0;
  /** When a read last found the journal other than this process counted it: another server writes into it too (or drops from it). */
  private sharedAt = -Infinity;

  constructor(
    private readonly files: JournalFiles,
    readonly maxBytes: number,
    /** Drops a group (made room for): the journal forgets it. */
    private readonly dropGroup: (group: FoldedGroup) => Promise<void>,
    /** The groups this process records into, by id: their size as counted (not walked again when the size on disk is read). */
    private readonly recording: () => ReadonlyMap<string, number> = () => new Map(),
  ) {}

  /** Once per process: what the journal holds, so records count toward the bound from the first. */
  async known(): Promise<void> {
    this.total ??= await this.files.total().catch(() => null);
  }

  /** Whether a whole folder of `bytes` (null: not known) may drop older groups to be kept. */
  mayEvictFor(bytes: number | null): boolean {
    return bytes !== null && bytes <= this.maxBytes / LARGEST_SHARE;
  }

  /** Whether a group is full: it takes no new call. */
  full(group: FoldedGroup): boolean {
    return group.bytes >= this.maxBytes / GROUP_SHARE;
  }

  /** room() when it needs no work (the size of the journal is known and there is room): null, else undefined. */
  roomNow(size: number): null | undefined {
    const fits = size <= this.maxBytes / LARGEST_SHARE && this.total !== null && this.total + size <= this.maxBytes;
    return fits ? null : undefined;
  }

  /** Makes room for a pre-image of `size` bytes, dropping the oldest other groups (`evict`): null, or why it cannot be kept. */
  async room(group: FoldedGroup, size: number, evict = true): Promise<string | null> {
    const { maxBytes } = this;
    if (size > maxBytes / LARGEST_SHARE) return `${size} bytes: larger than a quarter of the journal's bound (undo.maxBytes ${maxBytes})`;
    // Another server sharing the journal grows it too: its real size decides.
    if (this.total === null || this.total + size > maxBytes) await this.reread();
    // Without dropping others, room is left for the records too (past the bound, they would drop others after all).
    if (!evict && this.total! + size > maxBytes - maxBytes / RECORDS_SHARE)
      return `the folder it was in is larger than a quarter of the journal's bound (undo.maxBytes ${maxBytes}), and the journal had no more room without dropping older changes`;
    if (this.total! + size > maxBytes) await this.makeRoom(size, group.meta.id, false);
    if (this.total! + size > maxBytes) return `the journal is full with these changes' own pre-images (undo.maxBytes ${maxBytes})`;
    return null;
  }

  /**
   * Room for `bytes` the journal takes whatever happens (an undo's outcome): read from disk first
   * (the undo may run in another process than the recording), the oldest other groups go. A
   * failure to make room does not stop the write: the next records trim again.
   */
  async fit(keep: string, bytes: number): Promise<void> {
    await this.makeRoom(bytes, keep, true).catch(() => {});
    if (this.total !== null) this.total += bytes;
  }

  /** Why a pre-image whose record alone takes `bytes` is not kept (more than a pre-image may take), or null. */
  recordTooLarge(bytes: number): string | null {
    const most = this.maxBytes / LARGEST_SHARE;
    return bytes > most ? `the list of all it holds takes ${bytes} bytes, more than a quarter of the journal's bound (undo.maxBytes ${this.maxBytes})` : null;
  }

  /** A pre-image of `size` bytes kept in the group (after room() said there was room; negative: removed again). */
  counted(group: FoldedGroup, size: number): void {
    this.total! += size;
    group.bytes += size;
    this.latest = group.meta.id;
  }

  /** A group this process just made, holding `bytes` (its meta.json): they count toward the bound, and it is the one recorded into. */
  opened(group: FoldedGroup, bytes: number): void {
    group.bytes += bytes;
    if (this.total !== null) this.total += bytes;
    this.latest = group.meta.id;
  }

  /** Records of `bytes` appended to the group: they count as pre-images do; past the bound, the oldest other groups go (after this call, off its path). */
  recorded(group: FoldedGroup, bytes: number): void {
    group.bytes += bytes;
    this.latest = group.meta.id;
    if (this.total === null) return;
    this.total += bytes;
    const shared = Date.now() - this.sharedAt < SHARED_FOR_MS;
    const every = shared && this.total > this.maxBytes - this.maxBytes / NEAR_SHARE ? NEAR_REREAD_MS : REREAD_MS;
    const stale = Date.now() - this.readAt > Math.max(every, this.readMs * REREAD_SHARE);
    if (this.total > this.maxBytes || stale) this.trim(stale, RETRIES);
  }

  /**
   * Makes room after the records, off the call's path. Calls made meanwhile can leave the journal
   * past the bound when it ends, and the last call may never come: it looks again a second later,
   * `retries` times.
   */
  private trim(reread: boolean, retries: number): void {
    if (this.trimming) return;
    this.trimming = this.makeRoom(0, null, reread)
      .catch(() => {})
      .finally(() => {
        this.trimming = null;
        if (this.total! > this.maxBytes && retries > 0) setTimeout(() => this.trim(true, retries - 1), REREAD_MS).unref();
      });
  }

  /** Done when records past the bound have dropped what they could (for tests). */
  async trimmed(): Promise<void> {
    while (this.trimming) await this.trimming;
  }

  /**
   * Drops the oldest other groups until `size` more bytes fit: first those not written within
   * RECENT_MS, then any; again while calls made meanwhile grew it past the bound. Never `keep`, nor
   * the group last recorded into (asked at each group: calls go on meanwhile). `reread`: the size
   * on disk is read first.
   */
  private makeRoom(size: number, keep: string | null, reread: boolean): Promise<void> {
    const next = this.making.then(async () => {
      if (reread || this.total === null) await this.reread();
      for (let dropped = true, pass = 0; this.total! + size > this.maxBytes && (dropped || pass < 2); pass++) {
        dropped = false;
        for (const id of await this.files.ids()) {
          if (this.total! + size <= this.maxBytes) break;
          if (id === keep || id === this.latest || this.files.undoing(id) || (pass === 0 && this.files.writtenWithin(id, RECENT_MS, Date.now()))) continue;
          // A damaged group goes too (it can never be undone).
          const group = await this.files.read(id).catch((error: unknown) => (error instanceof DamagedGroup ? this.files.damaged(id) : null));
          // An undo that failed partway may have taken away what only this group still keeps: it stays until tried again.
          if (!group || (group.undo && toRetry(group.undo).size > 0)) continue;
          await this.dropGroup(group);
          this.total! -= group.bytes;
          dropped = true;
        }
        await this.reread(false);
      }
    });
    this.making = next.catch(() => {});
    return next;
  }

  /** `judge`: whether a size other than counted means another server writes (not after drops: a dropped group's size as counted may differ). */
  private async reread(judge = true): Promise<void> {
    const started = Date.now();
    const counted = this.total;
    this.total = await this.files.total(this.recording());
    if (judge && counted !== null && this.total !== counted) this.sharedAt = Date.now();
    this.readAt = Date.now();
    this.readMs = this.readAt - started;
  }
}
