/**
 * Records that reach a group after an undo of it began, made undoable elsewhere.
 *
 * The server (one process) records into a group while the owner's undo of it runs in another
 * (the CLI, the tray). From the moment the undo's lock exists the group takes no new call: the
 * tool host starts a new group for the next one (LocalJournal.isOpen). A call already under way
 * still appends to the group (a pre-image taken before the lock, its stamps after the change),
 * and the undo may have read that or not. So the undo notes how many bytes of the group's records
 * it read (undone.json's `through`; reading an undone group back folds only those), and the
 * server looks, right after each append, whether an undo of the group began (its lock or
 * undone.json exists). If one did, it waits for that undo to end, then records again what it
 * appended past `through` in a new group of the same client (the continuation, dated by the first
 * of those records): each path with the group's first pre-image of it (its bytes copied), and the
 * stamps after. So every change the model made is undone, or in a group that can still be undone;
 * none sits unundone in a group marked undone.
 *
 * Looking after the append, not before, leaves no gap: when the look finds no lock, any lock is
 * made after the append, and the undo reads the records after it takes the lock. An undo that
 * failed, or whose process died, leaves no undone.json: the records stay in the group, not undone.
 * The undo itself never puts back a path the model changed while it ran: it judges every path by
 * the stamp the model's last change it read left, and again right before it puts the path back,
 * and reports a path changed since as a conflict instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Image, KeepBytes } from './images.js';
import type { FoldedGroup, JournalRecord } from './folded-group.js';
import type { JournalFiles } from './journal-files.js';
import { CHANGED_AFTER, stillSealed } from './linked-image.js';

/** A group this process records into, as LocalJournal holds it. */
export type RecordingGroup = FoldedGroup & { blobCount: number };

export interface LateRecordsHost {
  /** Opens a new group for `client`, dated `startedAt`. */
  open(client: string, startedAt: Date): Promise<RecordingGroup>;
  /** Appends records to a group this process records into (and folds them). */
  record(group: RecordingGroup, records: JournalRecord[]): void;
  /** Keeps a file's bytes in a group, within the journal's bound (as for any pre-image). */
  keep(group: RecordingGroup, file: string, seen: fs.Stats): ReturnType<KeepBytes>;
  /** Records that could not be carried on (they stay in the undone group, not undoable): the owner is told. */
  failed(error: Error): void;
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
    // One lstat while nothing was made in the group's folder since it was last found open (unchanged-folder.ts).
    if (this.files.openForRecording(id) || !this.files.undoBegun(id)) return;
    // Where each record's line ends in the records file (this process is its only writer).
    let end = this.files.recordsEnd(id);
    const ends: number[] = [];
    for (let i = records.length - 1; i >= 0; i--) {
      ends[i] = end;
      end -= Buffer.byteLength(`${JSON.stringify(records[i])}\n`);
    }
    // A failure to carry them leaves them in the group, as a failure to record any change leaves it unrecorded, and says so.
    const next: Promise<void> = (this.carrying.get(id) ?? Promise.resolve())
      .then(() => this.carry(group, records, ends))
      .catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        const paths = [...new Set(records.flatMap((r) => (r.k === 'git' ? [] : [r.p])))];
        this.host.failed(
          new Error(
            `changes made while group ${id} was being undone (${paths.length} path(s)) could not be carried on to a new group, so undo cannot put them back: ${why}`,
          ),
        );
      })
      .finally(() => {
        if (this.carrying.get(id) === next) this.carrying.delete(id);
      });
    this.carrying.set(id, next);
  }

  /** Done when every record seen late so far was carried on (for tests). */
  async settled(): Promise<void> {
    while (this.carrying.size > 0) await Promise.all(this.carrying.values());
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
      // Dated by its first change, not by when the undo ended: listed after the group, before those the client's next calls started.
      const first = Math.min(...late.map((record) => Date.parse(record.at)));
      continuation = this.host.open(group.meta.client, new Date(Math.max(first, Date.parse(group.meta.startedAt) + 1)));
      this.continuations.set(id, continuation);
      // One that could not be made is not kept: the next late record tries again.
      continuation.catch(() => this.continuations.delete(id));
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
      // A linked pre-image's seal stays behind: the copy has none.
      if (record.k === 'post') {
        const { h: _seal, ...post } = record;
        carried.push(post);
      }
    }
    this.host.record(target, carried);
  }

  /** A pre-image with its bytes copied into `target`'s blobs (under its own names). */
  private async copied(image: Image, blobs: string, target: RecordingGroup, sealed: boolean): Promise<Image> {
    if (image.type === 'directory' && image.entries) {
      const entries: typeof image.entries = [];
      for (const entry of image.entries) entries.push({ ...entry, image: await this.copied(entry.image, blobs, target, true) });
      return { ...image, entries };
    }
    if (image.type !== 'file' || !image.blob) return image;
    const { linked: _linked, ...copy } = image;
    if (!sealed) return { ...copy, blob: null, why: CHANGED_AFTER };
    const source = path.join(blobs, image.blob);
    const kept = await fs.promises
      .lstat(source)
      .then((seen) => this.host.keep(target, source, seen))
      .catch((error: Error) => ({
        blob: null,
        why: `it could not be copied from the group being undone when it changed: ${error.message}`,
      }));
    return { ...copy, ...kept };
  }
}
