/** The change journal on real files: pre-images, stamps, undo with conflicts, the bound and what it dropped. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalFiles } from '../../../../adapter/fs/journal/journal-files.js';
import { EVICT_AFTER_MS, LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();
const guards = allowingAll();

/** Every entry under `dir`: bytes (base64), mode, modification time (to 10 ms: utimes cannot set nanoseconds), link targets. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, prefix: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const s = fs.lstatSync(full);
      const mode = (s.mode & 0o7777).toString(8);
      if (s.isSymbolicLink()) out[prefix + name] = `-> ${fs.readlinkSync(full)}`;
      else if (s.isDirectory()) {
        out[`${prefix}${name}/`] = mode;
        walk(full, `${prefix}${name}/`);
      } else out[prefix + name] = `${mode} ${fs.readFileSync(full).toString('base64')} ${Math.round(s.mtimeMs / 10)}`;
    }
  };
  walk(dir, '');
  return out;
}

/** A change as the tool host records it: pre-images, the change, stamps. */
async function change(journal: LocalJournal, id: string, tool: string, paths: string[], depth: 'shallow' | 'tree', act: () => void) {
  await journal.before(id, tool, { paths, depth });
  act();
  await journal.after(id, tool, paths);
}

describe('LocalJournal', () => {
  it('puts back every byte, mode, time and link a group changed', async () => {
    fs.writeFileSync(at('script.sh'), '#!/bin/sh\necho one\n', { mode: 0o750 });
    fs.writeFileSync(at('data.bin'), Buffer.from([0, 255, 1, 254, 0]));
    fs.mkdirSync(at('dir/inner'), { recursive: true });
    fs.writeFileSync(at('dir/inner/deep.txt'), 'deep\n', { mode: 0o600 });
    fs.symlinkSync('inner/deep.txt', at('dir/link'));
    fs.chmodSync(at('dir'), 0o751);
    const before = snapshot(at());
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('test client');

    await change(journal, id, 'fs.write', [at('script.sh')], 'shallow', () => fs.writeFileSync(at('script.sh'), 'changed\n'));
    await change(journal, id, 'fs.edit', [at('script.sh')], 'shallow', () => fs.writeFileSync(at('script.sh'), 'changed twice\n'));
    await change(journal, id, 'fs.write', [at('new.txt')], 'shallow', () => fs.writeFileSync(at('new.txt'), 'new\n'));
    await change(journal, id, 'fs.mkdir', [at('made')], 'shallow', () => fs.mkdirSync(at('made')));
    await change(journal, id, 'fs.write', [at('made/in.txt')], 'shallow', () => fs.writeFileSync(at('made/in.txt'), 'in\n'));
    await change(journal, id, 'fs.move', [at('data.bin'), at('moved.bin')], 'tree', () => fs.renameSync(at('data.bin'), at('moved.bin')));
    await change(journal, id, 'fs.delete', [at('dir')], 'tree', () => fs.rmSync(at('dir'), { recursive: true }));
    expect(snapshot(at())).not.toEqual(before);

    const detail = await journal.show(id);
    expect(detail).toMatchObject({
      client: 'test client',
      files: 7,
      notKept: 0,
      state: 'open',
      tools: ['fs.write', 'fs.edit', 'fs.mkdir', 'fs.move', 'fs.delete'],
    });
    expect(detail.changes.map((c) => [path.relative(at(), c.path), c.change])).toEqual([
      ['script.sh', 'modified'],
      ['new.txt', 'created'],
      ['made', 'created'],
      ['made/in.txt', 'created'],
      ['data.bin', 'deleted'],
      ['moved.bin', 'created'],
      ['dir', 'deleted'],
    ]);
    expect(detail.changes[0]!.diff).toMatch(/-changed twice\n\+#!\/bin\/sh\n\+echo one/);

    const outcome = await journal.apply(id, guards);
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.skipped).toEqual([]);
    expect(snapshot(at())).toEqual(before);
    expect((await journal.list()).groups[0]).toMatchObject({ id, state: 'undone' });
    await expect(journal.apply(id, guards)).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });

  it('leaves a path someone changed after the model, and reports it', async () => {
    fs.writeFileSync(at('a.txt'), 'original a\n');
    fs.writeFileSync(at('b.txt'), 'original b\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('a.txt')], 'shallow', () => fs.writeFileSync(at('a.txt'), 'model a\n'));
    await change(journal, id, 'fs.write', [at('b.txt')], 'shallow', () => fs.writeFileSync(at('b.txt'), 'model b\n'));
    await change(journal, id, 'fs.write', [at('c.txt')], 'shallow', () => fs.writeFileSync(at('c.txt'), 'model c\n'));
    fs.writeFileSync(at('b.txt'), 'the owner edited b\n');
    fs.rmSync(at('c.txt'));
    const outcome = await journal.apply(id, guards);
    // c.txt, which the model made, is gone already: as before the model, nothing to do there.
    expect(outcome.restored.sort()).toEqual([at('a.txt'), at('c.txt')]);
    expect(outcome.conflicts).toEqual([{ path: at('b.txt'), why: 'it was changed after the model changed it' }]);
    expect(outcome.notes).toEqual([{ path: at('c.txt'), why: expect.stringMatching(/^it was already as it was before the model changed it/) }]);
    expect(fs.readFileSync(at('a.txt'), 'utf8')).toBe('original a\n');
    expect(fs.readFileSync(at('b.txt'), 'utf8')).toBe('the owner edited b\n');
    expect((await journal.list()).groups[0]!.state).toBe('partly undone');
  });

  it('a later apply finishes an undo that stopped part way: what it had put back counts as done, not as a conflict', async () => {
    fs.writeFileSync(at('a.txt'), 'original a\n', { mode: 0o640 });
    // A whole second, so the time set again below is the very same (one taken from stat loses its
    // sub-millisecond part, and the snapshot's 10 ms rounding then flipped now and then).
    const aTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    fs.utimesSync(at('a.txt'), aTime, aTime);
    fs.writeFileSync(at('b.txt'), 'original b\n');
    fs.symlinkSync('a.txt', at('link'));
    const before = snapshot(at());
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('a.txt')], 'shallow', () => fs.writeFileSync(at('a.txt'), 'model a\n'));
    await change(journal, id, 'fs.write', [at('b.txt')], 'shallow', () => fs.writeFileSync(at('b.txt'), 'model b\n'));
    await change(journal, id, 'fs.delete', [at('link')], 'tree', () => fs.rmSync(at('link')));
    // What an undo killed after putting a.txt and the link back leaves: those as before, b.txt as the model left it, a temporary beside.
    fs.rmSync(at('a.txt'));
    fs.writeFileSync(at('a.txt'), 'original a\n', { mode: 0o640 });
    fs.utimesSync(at('a.txt'), aTime, aTime);
    fs.symlinkSync('a.txt', at('link'));
    fs.writeFileSync(at('.undo-0123456789abcdef'), 'model b\n');
    const outcome = await journal.apply(id, guards);
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.restored.sort()).toEqual([at('a.txt'), at('b.txt'), at('link')].sort());
    expect(outcome.notes?.map((n) => [n.path, n.why.split(' (')[0]])).toEqual([
      [at('a.txt'), 'it was already as it was before the model changed it'],
      [at('link'), 'it was already as it was before the model changed it'],
    ]);
    expect(outcome.notes?.[0]!.why).toContain(`may be in ${at('.undo-0123456789abcdef')}`);
    fs.rmSync(at('.undo-0123456789abcdef'));
    expect(snapshot(at())).toEqual(before);
    expect((await journal.list()).groups[0]!.state).toBe('undone');
  });

  it('a file put back with other bytes or other permissions is still a conflict', async () => {
    fs.writeFileSync(at('a.txt'), 'original a\n', { mode: 0o640 });
    fs.writeFileSync(at('b.txt'), 'original b\n', { mode: 0o640 });
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('a.txt')], 'shallow', () => fs.writeFileSync(at('a.txt'), 'model a\n'));
    await change(journal, id, 'fs.write', [at('b.txt')], 'shallow', () => fs.writeFileSync(at('b.txt'), 'model b\n'));
    fs.writeFileSync(at('a.txt'), 'original A\n');
    fs.writeFileSync(at('b.txt'), 'original b\n');
    fs.chmodSync(at('b.txt'), 0o644);
    const outcome = await journal.apply(id, guards);
    expect(outcome.conflicts.map((c) => c.path)).toEqual([at('a.txt'), at('b.txt')]);
    expect(outcome.restored).toEqual([]);
  });

  it('a folder the model made and the owner then filled is left alone', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.mkdir', [at('made')], 'shallow', () => fs.mkdirSync(at('made')));
    fs.writeFileSync(at('made/owner.txt'), 'mine\n');
    const outcome = await journal.apply(id, guards);
    expect(outcome.conflicts.map((c) => c.path)).toEqual([at('made')]);
    expect(fs.readFileSync(at('made/owner.txt'), 'utf8')).toBe('mine\n');
  });

  it('keeps within its bound: drops the oldest groups and says so, and does not keep a pre-image too large for it', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 40_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      fs.writeFileSync(at(`f${i}.txt`), 'x'.repeat(9_000));
      const id = await journal.open(`client ${i}`);
      ids.push(id);
      await change(journal, id, 'fs.write', [at(`f${i}.txt`)], 'shallow', () => fs.writeFileSync(at(`f${i}.txt`), 'short'));
    }
    fs.writeFileSync(at('huge.txt'), 'y'.repeat(20_000));
    const last = await journal.open('huge');
    await change(journal, last, 'fs.write', [at('huge.txt')], 'shallow', () => fs.writeFileSync(at('huge.txt'), 'small'));

    const { groups, dropped } = await journal.list();
    const total = groups.reduce((n, g) => n + g.bytes, 0);
    expect(total).toBeLessThanOrEqual(40_000);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.map((d) => d.id)).toEqual(ids.slice(0, dropped.length).reverse());
    expect(groups.map((g) => g.id)).not.toContain(ids[0]);
    expect(groups[0]).toMatchObject({ id: last, notKept: 1 });
    const detail = await journal.show(last);
    expect(detail.changes[0]).toMatchObject({ kept: false, why: expect.stringMatching(/larger than a quarter of the journal's bound/) });
    const outcome = await journal.apply(last, guards);
    expect(outcome.skipped).toEqual([{ path: at('huge.txt'), why: expect.stringMatching(/^its earlier state was not kept/) }]);
    expect(fs.readFileSync(at('huge.txt'), 'utf8')).toBe('small');
  });

  it('counts records toward its bound too: a group of many small creations drops older groups, and says so', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 40_000 });
    fs.writeFileSync(at('old.txt'), 'o'.repeat(5_000));
    const older = await journal.open('earlier');
    await change(journal, older, 'fs.write', [at('old.txt')], 'shallow', () => fs.writeFileSync(at('old.txt'), 'short'));
    const many = await journal.open('creator');
    for (let i = 0; i < 300; i++) await change(journal, many, 'fs.write', [at(`new-${i}.txt`)], 'shallow', () => fs.writeFileSync(at(`new-${i}.txt`), 'n'));
    await expect.poll(async () => (await journal.list()).dropped.map((d) => d.id)).toEqual([older]);
    expect((await journal.list()).groups.map((g) => g.id)).toEqual([many]);
  });

  it('an undo makes room for its own outcome before writing it: the journal stays within its bound', async () => {
    const maxBytes = 40_000;
    const journal = new LocalJournal({ dir: journalDir(), maxBytes });
    fs.writeFileSync(at('old.txt'), 'o'.repeat(9_000));
    const older = await journal.open('earlier');
    await change(journal, older, 'fs.write', [at('old.txt')], 'shallow', () => fs.writeFileSync(at('old.txt'), 'short'));
    fs.writeFileSync(at('mid.txt'), 'm'.repeat(9_000));
    const middle = await journal.open('meanwhile');
    await change(journal, middle, 'fs.write', [at('mid.txt')], 'shallow', () => fs.writeFileSync(at('mid.txt'), 'short'));
    // Files of long names: the outcome lists each restored path.
    const many = await journal.open('writer');
    const names = Array.from({ length: 17 }, (_, i) => at(`${String(i).padStart(2, '0')}-${'n'.repeat(180)}.txt`));
    for (const name of names) fs.writeFileSync(name, 'p'.repeat(200));
    for (const name of names) await change(journal, many, 'fs.write', [name], 'shallow', () => fs.writeFileSync(name, 'q'));
    await journal.settled();
    const total = () => new JournalFiles(journalDir()).total();
    // Near the bound: with less room than the outcome takes (each restored path is named in it whole).
    expect(maxBytes - (await total())).toBeLessThan(names.join('').length);
    expect((await journal.list()).groups.map((g) => g.id)).toContain(older);

    const outcome = await journal.apply(many, guards);
    expect(outcome.restored).toHaveLength(17);
    expect(await total()).toBeLessThanOrEqual(maxBytes);
    expect((await journal.list()).dropped.map((d) => d.id)).toEqual([older]);
    expect((await journal.list()).groups.map((g) => g.id)).toEqual([many, middle]);
    expect(fs.readFileSync(names[0]!, 'utf8')).toBe('p'.repeat(200));
  });

  it('a folder whose list of names alone is larger than a quarter of the bound is not kept, its bytes removed again, and says so', async () => {
    const maxBytes = 40_000;
    const journal = new LocalJournal({ dir: journalDir(), maxBytes });
    fs.mkdirSync(at('tree'));
    // 2 bytes each, but 200 entries of 180-character names: some 50 KB of record.
    for (let i = 0; i < 200; i++) fs.writeFileSync(at('tree', `${String(i).padStart(3, '0')}-${'n'.repeat(176)}`), 'ab');
    const id = await journal.open('deleter');
    await change(journal, id, 'fs.delete', [at('tree')], 'tree', () => fs.rmSync(at('tree'), { recursive: true }));
    await journal.settled();
    const sizes = (dir: string): number =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .reduce((sum, e) => sum + (e.isDirectory() ? sizes(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);
    expect(sizes(journalDir())).toBeLessThanOrEqual(maxBytes);
    expect(fs.readdirSync(path.join(journalDir(), 'groups', id, 'blobs'))).toEqual([]);
    const [change0] = (await journal.show(id)).changes;
    expect(change0).toMatchObject({ path: at('tree'), was: 'directory', kept: false });
    expect(change0!.why).toMatch(/^the list of all it holds takes \d+ bytes, more than a quarter of the journal's bound \(undo.maxBytes 40000\)$/);
  });

  it('keeps few records files open however many groups it records into, and loses no record', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const openFiles = () => fs.readdirSync('/proc/self/fd').length;
    const ids: string[] = [];
    const before = openFiles();
    for (let i = 0; i < 40; i++) {
      const id = await journal.open(`client-${i}`);
      ids.push(id);
      await change(journal, id, 'fs.write', [at(`f${i}.txt`)], 'shallow', () => fs.writeFileSync(at(`f${i}.txt`), `${i}`));
    }
    const open = openFiles();
    // The first group again, long after its records file was closed.
    await change(journal, ids[0]!, 'fs.edit', [at('f0.txt')], 'shallow', () => fs.writeFileSync(at('f0.txt'), 'again'));
    expect(openFiles()).toBeLessThanOrEqual(open + 1);
    expect(open - before).toBeLessThanOrEqual(16);
    expect((await journal.show(ids[0]!)).tools).toEqual(['fs.write', 'fs.edit']);
    expect((await journal.list()).groups).toHaveLength(40);
  });

  it('holds only recently used groups in memory; a late change to one that left is read back, numbered on, and undone whole', async () => {
    let now = Date.parse('2026-12-04T10:00:00Z');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20, now: () => new Date(now) });
    fs.writeFileSync(at('a.txt'), 'a0');
    fs.writeFileSync(at('b.txt'), 'b0');
    const old = await journal.open('client');
    await change(journal, old, 'fs.write', [at('a.txt')], 'shallow', () => fs.writeFileSync(at('a.txt'), 'a1'));
    for (let i = 0; i < 30; i++) {
      now += EVICT_AFTER_MS + 1;
      await journal.open(`client-${i}`);
    }
    expect(journal.liveGroups).toBe(1);
    // A call that began before the group went idle records into it still: a new pre-image, not the first one overwritten.
    await change(journal, old, 'fs.edit', [at('b.txt')], 'shallow', () => fs.writeFileSync(at('b.txt'), 'b1'));
    expect(fs.readdirSync(path.join(journalDir(), 'groups', old, 'blobs')).sort()).toEqual(['0', '1']);
    expect((await journal.show(old)).tools).toEqual(['fs.write', 'fs.edit']);
    expect((await journal.apply(old, guards)).conflicts).toEqual([]);
    expect([fs.readFileSync(at('a.txt'), 'utf8'), fs.readFileSync(at('b.txt'), 'utf8')]).toEqual(['a0', 'b0']);
  });

  it('keeps its folder and files owner-only', async () => {
    fs.writeFileSync(at('a.txt'), 'a');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('a.txt')], 'shallow', () => fs.writeFileSync(at('a.txt'), 'b'));
    const modes: string[] = [];
    const walk = (dir: string) => {
      modes.push(`${(fs.statSync(dir).mode & 0o777).toString(8)} ${path.relative(journalDir(), dir) || '.'}`);
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else modes.push(`${(fs.statSync(full).mode & 0o777).toString(8)} ${path.relative(journalDir(), full)}`);
      }
    };
    walk(journalDir());
    expect(modes.every((m) => m.startsWith('700 ') || m.startsWith('600 '))).toBe(true);
  });
});
