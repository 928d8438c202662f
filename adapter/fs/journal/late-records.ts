/**
 * Records that reach a group after an undo of it began, made undoable elsewhere.
 *
 * The server (one process) records into a group while the owner's undo of it runs in another
 * (the CLI, the tray). From the moment the undo's lock exists, the tool host starts a new group
 * for each new call (LocalJournal.isOpen). A call already recording into the group then still
 * appends to it: a pre-image taken before the lock, and its stamps after the change, which the
 * undo may have read or not. The undo notes how many bytes of the group's records it read and
 * undid (undone.json's `through`); reading an undone group back folds only those. The server
 * looks, right after each append, whether an undo of the group began (its lock or undone.json
 * exists): if it did, it waits for that undo to end and records again, in a new group of the same
 * client (the continuation), every record it appended past `through`: each path with the group's
 * first pre-image of it (its bytes copied), and the stamps after. So each change the model made
 * is either undone or in a group that can still be undone; none is counted in a group marked
 * undone without having been undone.
 *
 * Looking after the append, not before it, leaves no gap: an append the undo may have missed is
 * seen, since a lock made after the look was made after the append, before the undo read. An undo
 * that failed, or whose process died, leaves no undone.json: the records stay in the group, which
 * is not undone. The undo itself never puts back a path the model changed while it ran: it judges
 * every path by its stamp after the model's last change it read, and again right before it puts
 * the path back, and reports the path as a conflict instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Image } from './images.js';
import type { FoldedGroup, JournalFiles, JournalRecord } from './journal-files.js';
import { CHANGED_AFTER, stillSealed } from './linked-image.js';

/** A group this process records into, as LocalJournal holds it. */
export type RecordingGroup = FoldedGroup & { blobCount: number };

export interface LateRecordsHost {
  /** Opens a new group for `client`. */
  open(client: string): Promise<RecordingGroup>;
  /** Appends records to a group this process records into (and folds them). */
  record(group: RecordingGroup, records: JournalRecord[]): void;
  /** `bytes` more of a group's pre-images kept. */
  kept(group: RecordingGroup, bytes: number): void;
}

/** How often a server waiting for an undo to end looks at its lock. */
const WAIT_MS = 25;

export class LateRecords {
  /** Per group: the carrying so far (one at a time, in order), and its continuation once opened. */
  private readonly carrying = new Map<string, Promise<void>>();
  private readonly continuations = new Map<string, Promise<RecordingGroup>>();

  constructor(
    private readonly files: JournalFiles,
    private readonly host: LateRecordsHost,
  ) {}

  /** After `records` were appended to `group` (the last append to its records file): carries them on if its undo may have missed them. */
  appended(group: FoldedGroup, records: readonly JournalRecord[]): void {
    const id = group.meta.id;
    if (!this.files.undoBegun(id)) return;
    // Where each record's line ends in the records file (this process is its only writer).
    let end = this.files.recordsEnd(id);
    const ends: number[] = [];
    for (let i = records.length - 1; i >= 0; i--) {
      ends[i] = end;
      end -= Buffer.byteLength(`${JSON.stringify(records[i])}\n`);
    }
    // A failure to carry them leaves them in the group, as a failure to record any change leaves it unrecorded.
    const next = (this.carrying.get(id) ?? Promise.resolve()).then(() => this.carry(group, records, ends)).catch(() => {});
    this.carrying.set(id, next);
  }

  /** Done when every record seen late so far was carried on (for tests). */
  async settled(): Promise<void> {
    while (this.carrying.size > 0) {
      const pending = [...this.carrying];
      await Promise.all(pending.map(([, done]) => done));
      for (const [id, done] of pending) if (this.carrying.get(id) === done) this.carrying.delete(id);
    }
  }

  private async carry(group: FoldedGroup, records: readonly JournalRecord[], ends: readonly number[]): Promise<void> {
    const id = group.meta.id;
    while (!this.files.undoEnded(id)) await sleep(WAIT_MS, undefined, { ref: false });
    const through = await this.files.undoneThrough(id);
    if (through === null) return;
    const late = records.filter((_, i) => ends[i]! > through);
    if (late.length === 0) return;
    let continuation = this.continuations.get(id);
    if (!continuation) {
      continuation = this.host.open(group.meta.client);
      this.continuations.set(id, continuation);
    }
    const target = await continuation;
    const blobs = this.files.blobs(id);
    const carried: JournalRecord[] = [];
    for (const record of late) {
      if (record.k === 'git') {
        carried.push(record);
        continue;
      }
      if (!target.paths.has(record.p) && !carried.some((r) => r.k === 'pre' && r.p === record.p)) {
        const known = group.paths.get(record.p) ?? (record.k === 'pre' ? { pre: record.i, was: record.w, seal: undefined } : null);
        if (known) {
          const image = await this.copied(known.pre, blobs, target, await stillSealed(known.pre, known.seal, blobs));
          carried.push({ k: 'pre', t: record.t, p: record.p, i: image, w: known.was, at: record.at });
        }
      }
      // A linked pre-image's seal goes with it: the copy has none.
      if (record.k === 'post') carried.push({ k: 'post', t: record.t, p: record.p, s: record.s, at: record.at });
    }
    this.host.record(target, carried);
  }

  /** A pre-image with its bytes copied into `target`'s blobs (under its own names). */
  private async copied(image: Image, blobs: string, target: RecordingGroup, sealed: boolean): Promise<Image> {
    if (image.type === 'directory' && image.entries) {
      const entries: Array<{ name: string; image: Image }> = [];
      for (const entry of image.entries) entries.push({ name: entry.name, image: await this.copied(entry.image, blobs, target, true) });
      return { ...image, entries };
    }
    if (image.type !== 'file' || !image.blob) return image;
    const { linked: _linked, ...copy } = image;
    if (!sealed) return { ...copy, blob: null, why: CHANGED_AFTER };
    const name = String(target.blobCount++);
    const blob = path.join(this.files.blobs(target.meta.id), name);
    try {
      await fs.promises.copyFile(path.join(blobs, image.blob), blob, fs.constants.COPYFILE_FICLONE);
      await fs.promises.chmod(blob, 0o600);
      this.host.kept(target, (await fs.promises.stat(blob)).size);
      return { ...copy, blob: name };
    } catch (error) {
      return { ...copy, blob: null, why: `it could not be copied from the group being undone when it changed: ${(error as Error).message}` };
    }
  }
}
