/** Folders taken whole: paths the group changed inside them earlier, what was not kept inside them, their size against the bound, names that are not UTF-8. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();

async function change(journal: LocalJournal, id: string, tool: string, paths: string[], depth: 'shallow' | 'tree', act: () => void) {
  await journal.before(id, tool, { paths, depth });
  act();
  await journal.after(id, tool, paths);
}

/** Every file under a folder and its bytes, by relative path (names as bytes in hex when they are not UTF-8). */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: Buffer, prefix: string) => {
    for (const name of fs.readdirSync(folder, { encoding: 'buffer' })) {
      const full = Buffer.concat([folder, Buffer.from('/'), name]);
      const label = prefix + (Buffer.from(name.toString(), 'utf8').equals(name) ? name.toString() : `hex:${name.toString('hex')}`);
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) walk(full, `${label}/`);
      else out[label] = stat.isSymbolicLink() ? `link:${fs.readlinkSync(full, { encoding: 'buffer' }).toString('hex')}` : fs.readFileSync(full, 'utf8');
    }
  };
  walk(Buffer.from(dir), '');
  return out;
}

describe('a folder deleted after the group changed files in it', () => {
  it('comes back as it was before the group, not with the model edits, and without blaming the owner', async () => {
    fs.mkdirSync(at('d/sub'), { recursive: true });
    fs.writeFileSync(at('d/f.txt'), 'ORIGINAL f\n');
    fs.writeFileSync(at('d/g.txt'), 'ORIGINAL g\n');
    fs.writeFileSync(at('d/sub/h.txt'), 'ORIGINAL h\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('d/f.txt')], 'shallow', () => fs.writeFileSync(at('d/f.txt'), 'MODEL f\n'));
    await change(journal, id, 'fs.write', [at('d/new.txt')], 'shallow', () => fs.writeFileSync(at('d/new.txt'), 'MODEL new\n'));
    await change(journal, id, 'fs.delete', [at('d/sub')], 'tree', () => fs.rmSync(at('d/sub'), { recursive: true }));
    await change(journal, id, 'fs.delete', [at('d')], 'tree', () => fs.rmSync(at('d'), { recursive: true }));

    // One change shown: the folder; the paths inside it come back with it.
    expect((await journal.show(id)).changes.map((c) => [c.path, c.change])).toEqual([[at('d'), 'deleted']]);
    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.skipped).toEqual([]);
    expect(contents(at('d'))).toEqual({ 'f.txt': 'ORIGINAL f\n', 'g.txt': 'ORIGINAL g\n', 'sub/h.txt': 'ORIGINAL h\n' });
  });

  it('puts the folder back as before the group when the model made it again, and the folder is as the model left it', async () => {
    fs.mkdirSync(at('d'));
    fs.writeFileSync(at('d/f.txt'), 'ORIGINAL f\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('d/f.txt')], 'shallow', () => fs.writeFileSync(at('d/f.txt'), 'MODEL f\n'));
    await change(journal, id, 'fs.delete', [at('d')], 'tree', () => fs.rmSync(at('d'), { recursive: true }));
    await change(journal, id, 'fs.mkdir', [at('d')], 'shallow', () => fs.mkdirSync(at('d')));
    await change(journal, id, 'fs.write', [at('d/f.txt')], 'shallow', () => fs.writeFileSync(at('d/f.txt'), 'MODEL again\n'));

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.conflicts).toEqual([]);
    expect(contents(at('d'))).toEqual({ 'f.txt': 'ORIGINAL f\n' });
  });

  it('puts back a folder of empty files the model deleted and made again empty (its inode number may come back)', async () => {
    fs.mkdirSync(at('d'));
    fs.writeFileSync(at('d/.keep'), '');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('d')], 'tree', () => fs.rmSync(at('d'), { recursive: true }));
    await change(journal, id, 'fs.mkdir', [at('d')], 'shallow', () => fs.mkdirSync(at('d')));

    expect((await journal.apply(id, allowingAll())).restored).toEqual([at('d')]);
    expect(contents(at('d'))).toEqual({ '.keep': '' });
  });

  it('keeps the earliest state of a path inside folders taken whole twice', async () => {
    fs.mkdirSync(at('d/e'), { recursive: true });
    fs.writeFileSync(at('d/e/f.txt'), 'ORIGINAL f\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('d/e')], 'tree', () => fs.rmSync(at('d/e'), { recursive: true }));
    await change(journal, id, 'fs.mkdir', [at('d/e')], 'shallow', () => fs.mkdirSync(at('d/e')));
    // Recorded after d/e was taken whole: it was not there then, but it was before the group.
    await change(journal, id, 'fs.write', [at('d/e/f.txt')], 'shallow', () => fs.writeFileSync(at('d/e/f.txt'), 'MODEL f\n'));
    await change(journal, id, 'fs.delete', [at('d')], 'tree', () => fs.rmSync(at('d'), { recursive: true }));

    expect((await journal.apply(id, allowingAll())).conflicts).toEqual([]);
    expect(contents(at('d'))).toEqual({ 'e/f.txt': 'ORIGINAL f\n' });
  });

  it('leaves the folder when the owner changed a file in it after the model made it again', async () => {
    fs.mkdirSync(at('d'));
    fs.writeFileSync(at('d/f.txt'), 'ORIGINAL f\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('d/f.txt')], 'shallow', () => fs.writeFileSync(at('d/f.txt'), 'MODEL f\n'));
    await change(journal, id, 'fs.move', [at('d'), at('e')], 'tree', () => fs.renameSync(at('d'), at('e')));
    fs.writeFileSync(at('e/owner.txt'), 'the owner\n');

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.conflicts.map((c) => c.path)).toEqual([at('e')]);
    expect(contents(at('e'))).toEqual({ 'f.txt': 'MODEL f\n', 'owner.txt': 'the owner\n' });
  });
});

describe('a folder taken whole, in part', () => {
  it('is put back without the fifo it held, and says so', async () => {
    fs.mkdirSync(at('d'));
    fs.writeFileSync(at('d/a.txt'), 'a\n');
    execFileSync('mkfifo', [at('d/pipe')]);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('d')], 'tree', () => fs.rmSync(at('d'), { recursive: true }));

    expect((await journal.show(id)).changes).toMatchObject([{ path: at('d'), kept: true, partly: ['pipe: it was not a file, link or folder'] }]);
    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.restored).toEqual([at('d')]);
    expect(outcome.notes).toEqual([{ path: at('d'), why: 'not put back: pipe: it was not a file, link or folder' }]);
    expect(contents(at('d'))).toEqual({ 'a.txt': 'a\n' });
  });

  it('moved, comes back without what was not kept, and the folder it was moved to is left with it', async () => {
    fs.mkdirSync(at('x'));
    fs.writeFileSync(at('x/a.txt'), 'a\n');
    execFileSync('mkfifo', [at('x/pipe')]);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.move', [at('x'), at('y')], 'tree', () => fs.renameSync(at('x'), at('y')));

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.restored).toEqual([at('x')]);
    expect(outcome.skipped).toEqual([{ path: at('y'), why: expect.stringMatching(/may hold the only copy of it, so it is left$/) }]);
    expect(contents(at('x'))).toEqual({ 'a.txt': 'a\n' });
    // The only place the fifo still is.
    expect(fs.lstatSync(at('y/pipe')).isFIFO()).toBe(true);
  });

  it('drops no older group for a folder larger than a quarter of the bound, and keeps what fits', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 40_000 });
    fs.writeFileSync(at('important.txt'), 'x'.repeat(8_000));
    const older = await journal.open('c');
    await change(journal, older, 'fs.write', [at('important.txt')], 'shallow', () => fs.writeFileSync(at('important.txt'), 'model\n'));
    fs.mkdirSync(at('photos'));
    for (let i = 0; i < 6; i++) fs.writeFileSync(at(`photos/p${i}.jpg`), String(i).repeat(6_000));
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('photos')], 'tree', () => fs.rmSync(at('photos'), { recursive: true }));

    const { groups, dropped } = await journal.list();
    expect(dropped).toEqual([]);
    expect(groups.map((g) => g.id)).toEqual([id, older]);
    const detail = (await journal.show(id)).changes[0]!;
    expect(detail.kept).toBe(true);
    await journal.apply(id, allowingAll());
    const back = Object.keys(contents(at('photos')));
    const missing = [0, 1, 2, 3, 4, 5].map((i) => `p${i}.jpg`).filter((p) => !back.includes(p));
    expect(back.length).toBeGreaterThan(0);
    expect(missing.length).toBeGreaterThan(0);
    expect(detail.partly).toEqual([expect.stringMatching(new RegExp(`^${missing.join(', ')}: .*no more room without dropping older changes`))]);
    expect((await journal.apply(older, allowingAll())).restored).toEqual([at('important.txt')]);
  });
});

describe('names that are not UTF-8', () => {
  it('are kept and put back byte for byte', async () => {
    fs.mkdirSync(at('arch/inner'), { recursive: true });
    const latin1 = Buffer.concat([Buffer.from(at('arch/caf')), Buffer.from([0xe9]), Buffer.from('.txt')]);
    fs.writeFileSync(latin1, 'latin-1 name\n');
    const innerDir = Buffer.concat([Buffer.from(at('arch/d')), Buffer.from([0xff])]);
    fs.mkdirSync(innerDir);
    fs.writeFileSync(Buffer.concat([innerDir, Buffer.from('/x.txt')]), 'inside\n');
    fs.symlinkSync(Buffer.from([0x2e, 0x2f, 0xfe]), Buffer.from(at('arch/link')));
    fs.writeFileSync(at('arch/inner/plain.txt'), 'plain\n');
    const before = contents(at('arch'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('arch')], 'tree', () => fs.rmSync(at('arch'), { recursive: true }));

    expect((await journal.show(id)).changes).toMatchObject([{ path: at('arch'), kept: true }]);
    const outcome = await journal.apply(id, allowingAll());
    expect(outcome).toMatchObject({ restored: [at('arch')], conflicts: [], skipped: [] });
    expect(contents(at('arch'))).toEqual(before);
    expect(Object.keys(before)).toContain('hex:636166e92e747874');
    expect(fs.readlinkSync(Buffer.from(at('arch/link')), { encoding: 'buffer' })).toEqual(Buffer.from([0x2e, 0x2f, 0xfe]));
  });

  it('are not taken for the UTF-8 name they read as, when an edited file of that name comes back with its folder', async () => {
    fs.mkdirSync(at('d'));
    // Both read "a\uFFFD"; only the second is that name.
    fs.writeFileSync(Buffer.concat([Buffer.from(at('d/a')), Buffer.from([0x80])]), 'the owner, bytes\n');
    fs.writeFileSync(at('d/a\uFFFD'), 'the owner, text\n');
    const before = contents(at('d'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('d/a\uFFFD')], 'shallow', () => fs.writeFileSync(at('d/a\uFFFD'), 'MODEL\n'));
    await change(journal, id, 'fs.delete', [at('d')], 'tree', () => fs.rmSync(at('d'), { recursive: true }));

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome).toMatchObject({ restored: [at('d')], conflicts: [], skipped: [] });
    expect(contents(at('d'))).toEqual(before);
    expect(Object.keys(before).sort()).toEqual(['a\uFFFD', 'hex:6180']);
  });

  it('are seen by the fingerprint of a folder undo would take away', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.mkdir', [at('made')], 'shallow', () => fs.mkdirSync(at('made')));
    fs.writeFileSync(Buffer.concat([Buffer.from(at('made/')), Buffer.from([0xe9])]), 'the owner\n');

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.conflicts).toEqual([{ path: at('made'), why: 'it was changed after the model changed it' }]);
    expect(fs.readdirSync(at('made'), { encoding: 'buffer' })).toEqual([Buffer.from([0xe9])]);
  });
});

describe('a file changed in the same clock tick as the model', () => {
  it('is told by its bytes when its size and times are the same as the model left them', async () => {
    fs.writeFileSync(at('f.txt'), 'original\n');
    const dir = journalDir();
    const journal = new LocalJournal({ dir, maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.write', { paths: [at('f.txt')], depth: 'shallow' });
    fs.writeFileSync(at('f.txt'), 'model 1\n');
    const sha = (await import('node:crypto')).createHash('sha256').update('model 1\n').digest('hex');
    await journal.after(id, 'fs.write', [at('f.txt')], new Map([[at('f.txt'), sha]]));
    fs.writeFileSync(at('f.txt'), 'owner 1\n');
    // A filesystem with coarse times (FAT, HFS+, a share) records the owner's edit with the model's stamp: so does this journal, as read back.
    const records = path.join(dir, 'groups', id, 'records.jsonl');
    const now = fs.lstatSync(at('f.txt'));
    const lines = fs
      .readFileSync(records, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const post = lines.find((r) => r.k === 'post');
    post.s = { ...post.s, mtimeMs: now.mtimeMs, ctimeMs: now.ctimeMs };
    fs.writeFileSync(records, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

    const outcome = await new LocalJournal({ dir, maxBytes: 1 << 20 }).apply(id, allowingAll());
    expect(outcome.conflicts).toEqual([{ path: at('f.txt'), why: 'it was changed after the model changed it' }]);
    expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('owner 1\n');
  });

  it('is put back when its bytes are still the model', async () => {
    fs.writeFileSync(at('f.txt'), 'original\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.write', { paths: [at('f.txt')], depth: 'shallow' });
    fs.writeFileSync(at('f.txt'), 'model 1\n');
    const sha = (await import('node:crypto')).createHash('sha256').update('model 1\n').digest('hex');
    await journal.after(id, 'fs.write', [at('f.txt')], new Map([[at('f.txt'), sha]]));
    expect((await journal.apply(id, allowingAll())).restored).toEqual([at('f.txt')]);
    expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('original\n');
  });
});

describe('groups undone newest first', () => {
  it('lets the earlier group put back a file the later group put back first', async () => {
    fs.writeFileSync(at('f.txt'), 'original\n');
    fs.symlinkSync('first-target', at('link'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const earlier = await journal.open('c');
    await change(journal, earlier, 'fs.write', [at('f.txt')], 'shallow', () => fs.writeFileSync(at('f.txt'), 'model, first session\n'));
    await change(journal, earlier, 'fs.delete', [at('link')], 'shallow', () => fs.rmSync(at('link')));
    await change(journal, earlier, 'fs.write', [at('link')], 'shallow', () => fs.symlinkSync('model-target', at('link')));
    const later = await journal.open('c');
    await change(journal, later, 'fs.write', [at('f.txt')], 'shallow', () => fs.writeFileSync(at('f.txt'), 'model, second session\n'));
    await change(journal, later, 'fs.delete', [at('link')], 'shallow', () => fs.rmSync(at('link')));

    expect((await journal.apply(later, allowingAll())).restored).toEqual([at('f.txt'), at('link')]);
    expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('model, first session\n');
    const outcome = await journal.apply(earlier, allowingAll());
    expect(outcome.conflicts).toEqual([]);
    expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('original\n');
    expect(fs.readlinkSync(at('link'))).toBe('first-target');
  });

  it('lets the earlier group put back files inside a folder the later group moved or deleted', async () => {
    fs.mkdirSync(at('d/sub'), { recursive: true });
    fs.writeFileSync(at('d/f.txt'), 'original f\n');
    fs.writeFileSync(at('d/sub/g.txt'), 'original g\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const earlier = await journal.open('c');
    await change(journal, earlier, 'fs.write', [at('d/f.txt')], 'shallow', () => fs.writeFileSync(at('d/f.txt'), 'model f\n'));
    await change(journal, earlier, 'fs.write', [at('d/sub/g.txt')], 'shallow', () => fs.writeFileSync(at('d/sub/g.txt'), 'model g\n'));
    const later = await journal.open('c');
    await change(journal, later, 'fs.move', [at('d'), at('e')], 'tree', () => fs.renameSync(at('d'), at('e')));
    await change(journal, later, 'fs.delete', [at('e')], 'tree', () => fs.rmSync(at('e'), { recursive: true }));

    expect((await journal.apply(later, allowingAll())).conflicts).toEqual([]);
    expect(fs.readFileSync(at('d/f.txt'), 'utf8')).toBe('model f\n');
    const outcome = await journal.apply(earlier, allowingAll());
    expect(outcome).toMatchObject({ conflicts: [], skipped: [] });
    expect(contents(at('d'))).toEqual({ 'f.txt': 'original f\n', 'sub/g.txt': 'original g\n' });
  });

  it('still leaves a file the owner edited between the two undos', async () => {
    fs.writeFileSync(at('f.txt'), 'original\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const earlier = await journal.open('c');
    await change(journal, earlier, 'fs.write', [at('f.txt')], 'shallow', () => fs.writeFileSync(at('f.txt'), 'model, first session\n'));
    const later = await journal.open('c');
    await change(journal, later, 'fs.write', [at('f.txt')], 'shallow', () => fs.writeFileSync(at('f.txt'), 'model, second session\n'));
    await journal.apply(later, allowingAll());
    fs.writeFileSync(at('f.txt'), 'the owner, after\n');

    expect((await journal.apply(earlier, allowingAll())).conflicts.map((c) => c.path)).toEqual([at('f.txt')]);
    expect(fs.readFileSync(at('f.txt'), 'utf8')).toBe('the owner, after\n');
  });
});

describe('a folder put back whole', () => {
  it('has its modification time back, and so has each folder in it', async () => {
    fs.mkdirSync(at('kept/inner'), { recursive: true });
    fs.writeFileSync(at('kept/inner/f.txt'), 'f\n');
    const when = new Date('2021-02-03T04:05:06.789Z');
    fs.utimesSync(at('kept/inner'), when, when);
    fs.utimesSync(at('kept'), when, new Date('2022-02-03T04:05:06.789Z'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('kept')], 'tree', () => fs.rmSync(at('kept'), { recursive: true }));

    expect((await journal.apply(id, allowingAll())).restored).toEqual([at('kept')]);
    expect([fs.statSync(at('kept')).mtime.toISOString(), fs.statSync(at('kept/inner')).mtime.toISOString()]).toEqual([
      '2022-02-03T04:05:06.789Z',
      '2021-02-03T04:05:06.789Z',
    ]);
  });
});

describe('a file moved whose bytes were not kept (larger than the bound allows)', () => {
  it('is not put back, and the file it was moved to, its only copy, is left too', async () => {
    fs.writeFileSync(at('big.bin'), Buffer.alloc(64 * 1024, 7));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 64 * 1024 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.move', [at('big.bin'), at('moved.bin')], 'tree', () => fs.renameSync(at('big.bin'), at('moved.bin')));

    // A file the model wrote itself holds the model's bytes only: it goes as usual.
    await journal.before(id, 'fs.write', { paths: [at('planted.sh')], depth: 'shallow' });
    fs.writeFileSync(at('planted.sh'), 'echo planted\n');
    await journal.after(id, 'fs.write', [at('planted.sh')], new Map([[at('planted.sh'), createHash('sha256').update('echo planted\n').digest('hex')]]));

    // One a patch wrote may be a file it moved (*** Move to): it stays.
    await journal.before(id, 'fs.patch', { paths: [at('patched.txt')], depth: 'shallow' });
    fs.writeFileSync(at('patched.txt'), 'moved by a patch\n');
    await journal.after(id, 'fs.patch', [at('patched.txt')], new Map([[at('patched.txt'), createHash('sha256').update('moved by a patch\n').digest('hex')]]));

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.restored).toEqual([at('planted.sh')]);
    expect(fs.existsSync(at('planted.sh'))).toBe(false);
    expect(outcome.skipped.map((s) => s.path).sort()).toEqual([at('big.bin'), at('moved.bin'), at('patched.txt')]);
    expect(outcome.skipped.find((s) => s.path === at('moved.bin'))?.why).toBe(
      `${at('big.bin')} cannot be put back whole, and this, which the model made, may hold the only copy of it, so it is left`,
    );
    expect(fs.readFileSync(at('moved.bin')).equals(Buffer.alloc(64 * 1024, 7))).toBe(true);
  });

  it('leaves what a move made when its source is a conflict (something made it again): the destination may be its only copy', async () => {
    fs.writeFileSync(at('config.yaml'), 'precious\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.move', [at('config.yaml'), at('config.bak')], 'tree', () => fs.renameSync(at('config.yaml'), at('config.bak')));
    fs.writeFileSync(at('config.yaml'), 'generated\n');

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.conflicts.map((c) => c.path)).toEqual([at('config.yaml')]);
    expect(outcome.skipped).toEqual([
      {
        path: at('config.bak'),
        why: `${at('config.yaml')} cannot be put back whole, and this, which the model made, may hold the only copy of it, so it is left`,
      },
    ]);
    expect([fs.readFileSync(at('config.yaml'), 'utf8'), fs.readFileSync(at('config.bak'), 'utf8')]).toEqual(['generated\n', 'precious\n']);
  });

  it('takes away the folders the model made that hold no file by then, and leaves the others, saying why', async () => {
    fs.writeFileSync(at('big.bin'), Buffer.alloc(64 * 1024, 7));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 64 * 1024 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.move', [at('big.bin'), at('moved.bin')], 'tree', () => fs.renameSync(at('big.bin'), at('moved.bin')));
    // Empty, and holding only empty folders: both go.
    await change(journal, id, 'fs.mkdir', [at('empty')], 'shallow', () => fs.mkdirSync(at('empty')));
    await change(journal, id, 'fs.mkdir', [at('nested/a/b')], 'shallow', () => fs.mkdirSync(at('nested/a/b'), { recursive: true }));
    // Holding only a file fs.write made (it goes first): goes too.
    await change(journal, id, 'fs.mkdir', [at('written')], 'shallow', () => fs.mkdirSync(at('written')));
    await journal.before(id, 'fs.write', { paths: [at('written/planted.sh')], depth: 'shallow' });
    fs.writeFileSync(at('written/planted.sh'), 'echo planted\n');
    await journal.after(
      id,
      'fs.write',
      [at('written/planted.sh')],
      new Map([[at('written/planted.sh'), createHash('sha256').update('echo planted\n').digest('hex')]]),
    );
    // Holding what a patch wrote, under an empty folder: stays, with the file (the empty folder goes).
    await change(journal, id, 'fs.mkdir', [at('patched/inner')], 'shallow', () => fs.mkdirSync(at('patched/inner'), { recursive: true }));
    await change(journal, id, 'fs.patch', [at('patched/p.txt')], 'shallow', () => fs.writeFileSync(at('patched/p.txt'), 'moved by a patch\n'));

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.restored.sort()).toEqual([at('empty'), at('nested'), at('nested/a/b'), at('patched/inner'), at('written'), at('written/planted.sh')]);
    for (const gone of ['empty', 'nested', 'written']) expect(fs.existsSync(at(gone))).toBe(false);
    expect(outcome.skipped.map((s) => s.path).sort()).toEqual([at('big.bin'), at('moved.bin'), at('patched'), at('patched/p.txt')]);
    expect(outcome.skipped.find((s) => s.path === at('patched'))?.why).toBe(
      `${at('big.bin')} cannot be put back whole, and this folder, not empty, which the model made, may hold the only copy of it, so it is left`,
    );
    expect(fs.readdirSync(at('patched'))).toEqual(['p.txt']);
  });
});

describe('a folder holding a file the owner protects', () => {
  it("is taken whole without that file's bytes: never copied into the journal, and said so", async () => {
    fs.mkdirSync(at('app/config'), { recursive: true });
    fs.writeFileSync(at('app/main.js'), 'main\n');
    fs.writeFileSync(at('app/config/.env'), 'API_KEY=never-in-the-journal-123\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    // As the tool host asks (a delete the tool then refuses: nothing changes).
    const secret = (p: string) => path.basename(p) === '.env';
    await journal.before(id, 'fs.delete', { paths: [at('app')], depth: 'tree', secret });
    await journal.after(id, 'fs.delete', [at('app')]);
    const files = (fs.readdirSync(journalDir(), { recursive: true }) as string[]).map((f) => path.join(journalDir(), f)).filter((f) => fs.statSync(f).isFile());
    const journalText = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    expect(journalText).not.toContain('never-in-the-journal');
    expect(journalText).toContain("the owner's rules protect it (a secret), so its bytes are never copied into the journal");
    // The rest of the folder is kept as usual.
    expect(files.some((f) => fs.readFileSync(f, 'utf8') === 'main\n')).toBe(true);
  });
});
