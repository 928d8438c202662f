/** The journal's bound on real group folders: room for a pre-image, records past the bound, and when a group is full. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { JournalBound } from '../../../../adapter/fs/journal/journal-bound.js';
import { JournalFiles } from '../../../../adapter/fs/journal/journal-files.js';
import type { FoldedGroup } from '../../../../adapter/fs/journal/folded-group.js';
import { useJournalFolders } from '../../../helpers/journal-folders.js';

const { journalDir } = useJournalFolders();

/** A journal of `count` groups, each with records of about `bytes`, oldest first; the bound over it. `dropping`: awaited before each drop. */
async function journalOf(count: number, bytes: number, maxBytes: number, dropping: () => Promise<void> = async () => {}) {
  const files = new JournalFiles(journalDir());
  const dropped: string[] = [];
  const bound = new JournalBound(files, maxBytes, async (group) => {
    await dropping();
    dropped.push(group.meta.id);
    await files.close(group.meta.id);
    await files.drop(group, '2026-12-06T10:00:00.000Z');
  });
  const groups: FoldedGroup[] = [];
  for (let i = 0; i < count; i++) {
    const meta = { id: `20261206-10000000${i}-abcd`, client: `c${i}`, startedAt: `2026-12-06T10:00:0${i}.000Z` };
    await files.create(meta);
    files.append(meta.id, [{ k: 'git', t: 'git.commit', r: '/r', b: { commit: 'x'.repeat(bytes) } as never, a: { commit: 'y' } as never, at: meta.startedAt }]);
    groups.push(await files.read(meta.id));
  }
  await bound.known();
  return { files, bound, groups, dropped };
}

describe('JournalBound', () => {
  it('refuses a pre-image larger than a quarter of the bound, and says so', async () => {
    const { bound, groups } = await journalOf(1, 10, 4000);
    expect(await bound.room(groups[0]!, 1001)).toBe("1001 bytes: larger than a quarter of the journal's bound (undo.maxBytes 4000)");
    expect(await bound.room(groups[0]!, 1000)).toBeNull();
  });

  it('makes room by dropping the oldest other groups, never the one recorded into', async () => {
    const { files, bound, groups, dropped } = await journalOf(3, 1000, 4000);
    expect(await files.total()).toBeLessThan(4000);
    // The newest asks: the oldest goes first, and only as many as it takes.
    expect(await bound.room(groups[2]!, 900)).toBeNull();
    expect(dropped).toEqual([groups[0]!.meta.id]);
    // The asking group fills up: the other goes, then what does not fit is refused, the group kept.
    const bytes = files.append(groups[2]!.meta.id, [
      { k: 'git', t: 'git.commit', r: '/r', b: { commit: 'z'.repeat(2200) } as never, a: { commit: 'y' } as never, at: 'now' },
    ]);
    bound.recorded(groups[2]!, bytes);
    await bound.trimmed();
    expect(await bound.room(groups[2]!, 1000)).toBe("the journal is full with these changes' own pre-images (undo.maxBytes 4000)");
    expect(dropped).toEqual([groups[0]!.meta.id, groups[1]!.meta.id]);
    expect(await files.ids()).toEqual([groups[2]!.meta.id]);
  });

  it('records past the bound drop older groups after the call, until it is within the bound', async () => {
    const { files, bound, groups, dropped } = await journalOf(4, 700, 4000);
    expect(await files.total()).toBeLessThan(4000);
    const newest = groups[3]!;
    const bytes = files.append(newest.meta.id, [
      { k: 'git', t: 'git.commit', r: '/r', b: { commit: 'z'.repeat(1200) } as never, a: { commit: 'y' } as never, at: 'now' },
    ]);
    bound.recorded(newest, bytes);
    await bound.trimmed();
    expect(dropped).toEqual([groups[0]!.meta.id, groups[1]!.meta.id]);
    expect(await files.total()).toBeLessThanOrEqual(4000);
  });

  it('a trim under way keeps the group recorded into now: calls went on into a newer one (the one it began for was full), and the older goes first', async () => {
    let dropStarted!: () => void;
    const dropping = new Promise<void>((resolve) => (dropStarted = resolve));
    let letDrop!: () => void;
    const mayDrop = new Promise<void>((resolve) => (letDrop = resolve));
    const { files, bound, groups, dropped } = await journalOf(3, 1000, 4000, async () => {
      dropStarted();
      await mayDrop;
    });
    const record = (group: FoldedGroup, bytes: number) =>
      bound.recorded(
        group,
        files.append(group.meta.id, [
          { k: 'git', t: 'git.commit', r: '/r', b: { commit: 'v'.repeat(bytes) } as never, a: { commit: 'y' } as never, at: 'now' },
        ]),
      );
    // Records into the middle group pass the bound: a trim begins, and is dropping the oldest...
    record(groups[1]!, 1200);
    await dropping;
    // ...when the next calls go into the newest group, past the bound still once the oldest is gone: the middle one goes too.
    record(groups[2]!, 1500);
    letDrop();
    await bound.trimmed();
    expect(dropped).toEqual([groups[0]!.meta.id, groups[1]!.meta.id]);
    expect(await files.ids()).toEqual([groups[2]!.meta.id]);
  });

  it('a group holding half the bound is full, its records counted as its pre-images are', async () => {
    const { bound, groups } = await journalOf(1, 10, 4000);
    const group = groups[0]!;
    expect(bound.full(group)).toBe(false);
    bound.recorded(group, 2000 - group.bytes - 1);
    expect(bound.full(group)).toBe(false);
    bound.counted(group, 1);
    expect(bound.full(group)).toBe(true);
  });

  it('drops groups not written lately first: the newest group of another server sharing the journal goes last', async () => {
    const { files, bound, groups, dropped } = await journalOf(3, 1000, 4000);
    // The oldest group is another server's, written a moment ago; the second was last written two minutes ago.
    const aWhileAgo = new Date(Date.now() - 120_000);
    for (const group of groups.slice(1)) fs.utimesSync(path.join(journalDir(), 'groups', group.meta.id, 'records.jsonl'), aWhileAgo, aWhileAgo);
    expect(await bound.room(groups[2]!, 900)).toBeNull();
    expect(dropped).toEqual([groups[1]!.meta.id]);
    expect(await files.ids()).toEqual([groups[0]!.meta.id, groups[2]!.meta.id]);
  });

  it('near the bound, once another server is seen writing, reads the size on disk again within a tenth of a second, not before', async () => {
    const { files, bound, groups, dropped } = await journalOf(3, 900, 4000);
    const reads = vi.spyOn(files, 'total');
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const record = (group: FoldedGroup, bytes: number) =>
      bound.recorded(
        group,
        files.append(group.meta.id, [
          { k: 'git', t: 'git.commit', r: '/r', b: { commit: 'v'.repeat(bytes) } as never, a: { commit: 'y' } as never, at: 'now' },
        ]),
      );
    // Within a quarter of the bound, as this process knows it, and alone: it reads no sooner than a second on.
    expect(await files.total()).toBeGreaterThan(3000);
    reads.mockClear();
    await sleep(150);
    record(groups[1]!, 1);
    await bound.trimmed();
    expect(reads).not.toHaveBeenCalled();
    // Another server appends to its own group (the newest); a second on, this one reads it back: it is not alone.
    files.append(groups[2]!.meta.id, [{ k: 'git', t: 'git.commit', r: '/r', b: { commit: 'w'.repeat(100) } as never, a: { commit: 'y' } as never, at: 'now' }]);
    await sleep(1000);
    record(groups[1]!, 1);
    await bound.trimmed();
    expect(reads).toHaveBeenCalledTimes(1);
    expect(dropped).toEqual([]);
    // The other grows past the bound: this server's next small record, well within a second, reads it back and makes room.
    files.append(groups[2]!.meta.id, [{ k: 'git', t: 'git.commit', r: '/r', b: { commit: 'w'.repeat(900) } as never, a: { commit: 'y' } as never, at: 'now' }]);
    expect(await files.total()).toBeGreaterThan(4000);
    await sleep(400);
    record(groups[1]!, 1);
    await bound.trimmed();
    expect(dropped).toEqual([groups[0]!.meta.id]);
    expect(await files.total()).toBeLessThanOrEqual(4000);
  });
});
