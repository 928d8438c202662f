/** A group's files after a crash: a damaged meta.json or undone.json, a group folder left half made. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JournalFiles } from '../../../../adapter/fs/journal/journal-files.js';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { allowingAll } from '../../../helpers/journal-folders.js';

let base: string;
let work: string;
let journalDir: string;
const at = (...parts: string[]) => path.join(work, ...parts);
const guards = allowingAll();
const groupFile = (id: string, name: string) => path.join(journalDir, 'groups', id, name);

beforeEach(() => {
  base = makeTempDir();
  work = path.join(base, 'work');
  journalDir = path.join(base, 'app', 'journal');
  fs.mkdirSync(work);
});
afterEach(() => {
  vi.restoreAllMocks();
  removeDir(base);
});

/** A group in which the model rewrote the file `name` (`bytes` long before). */
async function rewrote(journal: LocalJournal, name: string, bytes = 10): Promise<string> {
  fs.writeFileSync(at(name), 'x'.repeat(bytes));
  const id = await journal.open('c');
  await journal.before(id, 'fs.write', { paths: [at(name)], depth: 'shallow' });
  fs.writeFileSync(at(name), 'model');
  await journal.after(id, 'fs.write', [at(name)]);
  return id;
}

describe('a damaged group', () => {
  it('is listed as damaged; show and undo say so in words', async () => {
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 1 << 20 });
    const damaged = await rewrote(journal, 'a.txt');
    const fine = await rewrote(journal, 'b.txt');
    fs.writeFileSync(groupFile(damaged, 'meta.json'), '');

    const { groups } = await journal.list();
    expect(groups.map((g) => [g.id, g.state])).toEqual([
      [fine, 'open'],
      [damaged, 'damaged'],
    ]);
    expect(groups[1]).toMatchObject({ startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), files: 0 });
    const refusal = { code: 'PRECONDITION_FAILED', message: expect.stringMatching(/is damaged \(its meta\.json cannot be read/) };
    await expect(journal.show(damaged)).rejects.toMatchObject(refusal);
    await expect(journal.apply(damaged, guards)).rejects.toMatchObject(refusal);
    expect(fs.readFileSync(at('a.txt'), 'utf8')).toBe('model');
  });

  it('with an undone.json cut short, is listed as damaged and not undone again', async () => {
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 1 << 20 });
    const id = await rewrote(journal, 'a.txt');
    fs.writeFileSync(groupFile(id, 'undone.json'), '{"appliedAt":"2026');
    expect((await journal.list()).groups.map((g) => g.state)).toEqual(['damaged']);
    await expect(journal.apply(id, guards)).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });

  it('is dropped, oldest first, to make room', async () => {
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 40_000 });
    const damaged = await rewrote(journal, 'a.txt', 9_000);
    fs.writeFileSync(groupFile(damaged, 'meta.json'), '');
    for (const name of ['b', 'c', 'd', 'e']) await rewrote(journal, name, 9_000);

    const { groups, dropped } = await journal.list();
    expect(groups.map((g) => g.id)).not.toContain(damaged);
    expect(dropped.at(-1)).toMatchObject({ id: damaged, client: '(unknown)' });
    expect(fs.existsSync(path.join(journalDir, 'groups', damaged))).toBe(false);
  });
});

describe('whether a group is open for recording', () => {
  const ID = '20260131-142501123-9f3a';
  const dir = () => path.join(journalDir, 'groups', ID);

  /** A group whose folder is judged settled (unchanged-folder.ts), found open once in full. */
  async function settledGroup(): Promise<JournalFiles> {
    const files = new JournalFiles(journalDir, () => Date.now() + 10_000);
    await files.create({ id: ID, client: 'c', startedAt: '2026-01-31T14:25:01.123Z' });
    expect(files.openForRecording(ID)).toBe(true);
    // A clock tick, so that what is made next cannot share the folder's time.
    await new Promise((resolve) => setTimeout(resolve, 30));
    return files;
  }

  it('asks one lstat while nothing changed in its folder, and nothing else', async () => {
    const files = await settledGroup();
    const exists = vi.spyOn(fs, 'existsSync');
    expect(files.openForRecording(ID)).toBe(true);
    expect(exists).not.toHaveBeenCalled();
  });

  it("is closed by an undo's lock, or its outcome, written as any version of the app writes them", async () => {
    let files = await settledGroup();
    fs.writeFileSync(path.join(dir(), 'undoing'), '{"pid": 1}');
    expect(files.openForRecording(ID)).toBe(false);
    expect(files.undoBegun(ID)).toBe(true);
    fs.rmSync(path.join(dir(), 'undoing'));
    removeDir(dir());
    files = await settledGroup();
    fs.writeFileSync(path.join(dir(), 'undone.json'), '{}');
    expect(files.openForRecording(ID)).toBe(false);
  });

  it('stays closed when asked again with the lock still there (a closed answer is not remembered)', async () => {
    const files = await settledGroup();
    fs.writeFileSync(path.join(dir(), 'undoing'), '{"pid": 1}');
    expect(files.openForRecording(ID)).toBe(false);
    expect(files.openForRecording(ID)).toBe(false);
  });

  it('sees a lock made while it asked in full, the next time (its stat is taken before)', async () => {
    const files = await settledGroup();
    // Something made in the folder, then the full checks: the look after them is not trusted.
    fs.writeFileSync(path.join(dir(), 'records.jsonl'), '');
    const existsSync = fs.existsSync;
    let made = false;
    vi.spyOn(fs, 'existsSync').mockImplementation((file) => {
      const found = existsSync(file);
      if (!made && String(file).endsWith('undone.json')) {
        made = true;
        fs.writeFileSync(path.join(dir(), 'undoing'), '{"pid": 1}');
      }
      return found;
    });
    expect(files.openForRecording(ID)).toBe(true);
    vi.restoreAllMocks();
    expect(files.openForRecording(ID)).toBe(false);
  });

  it('is closed once dropped, or when its meta.json is gone', async () => {
    let files = await settledGroup();
    fs.rmSync(path.join(dir(), 'meta.json'));
    expect(files.openForRecording(ID)).toBe(false);
    removeDir(dir());
    files = await settledGroup();
    removeDir(dir());
    expect(files.openForRecording(ID)).toBe(false);
  });
});

describe('writing a group', () => {
  it('puts a group folder in place only with its meta.json written, and lists no half-made one', async () => {
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 1 << 20 });
    const id = await rewrote(journal, 'a.txt');
    expect(fs.readdirSync(path.join(journalDir, 'groups'))).toEqual([id]);
    expect(JSON.parse(fs.readFileSync(groupFile(id, 'meta.json'), 'utf8'))).toMatchObject({ id, client: 'c' });
    // What a crash while making the next group leaves.
    fs.mkdirSync(path.join(journalDir, 'groups', `.new-20990101-000000000-abcd`, 'blobs'), { recursive: true });
    expect((await journal.list()).groups.map((g) => g.id)).toEqual([id]);
    await journal.apply(id, guards);
    expect(fs.readdirSync(path.join(journalDir, 'groups', id)).sort()).toEqual(['blobs', 'meta.json', 'records.jsonl', 'undone.json']);
  });

  it("removes a group folder a crash left half made once it is a minute old, not another process's being made", async () => {
    const groups = path.join(journalDir, 'groups');
    /** What a crash while making a group leaves: its folder under the temporary name, `bytes` in a kept pre-image. */
    const halfMade = (id: string, bytes: number, ageMs: number) => {
      fs.mkdirSync(path.join(groups, `.new-${id}`, 'blobs'), { recursive: true });
      fs.writeFileSync(path.join(groups, `.new-${id}`, 'blobs', '0'), 'x'.repeat(bytes));
      const at = (Date.now() - ageMs) / 1000;
      fs.utimesSync(path.join(groups, `.new-${id}`), at, at);
    };
    halfMade('20260101-000000000-abcd', 30_000, 61_000);
    halfMade('20260101-000000001-abcd', 1_000, 5_000);
    // Counted, though never listed: with it, the journal (40 kB) has no room for the 9 kB file.
    expect(await new JournalFiles(journalDir).total()).toBeGreaterThanOrEqual(31_000);
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 40_000 });
    const id = await rewrote(journal, 'a.txt', 9_000);
    expect(fs.readdirSync(groups).sort()).toEqual(['.new-20260101-000000001-abcd', id]);
    expect((await journal.show(id)).changes).toMatchObject([{ path: at('a.txt'), kept: true }]);
    expect(await new JournalFiles(journalDir).total()).toBeLessThan(12_000);
  });

  it('leaves no group folder behind when its meta.json cannot be written (a full disk)', async () => {
    const full = (file: unknown) => String(file).endsWith('meta.json') && Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const { open, writeFile } = fs.promises;
    vi.spyOn(fs.promises, 'open').mockImplementation(((file: fs.PathLike, ...rest: []) => {
      const error = full(file);
      return error ? Promise.reject(error) : open(file, ...rest);
    }) as typeof open);
    vi.spyOn(fs.promises, 'writeFile').mockImplementation(((file: fs.PathLike, ...rest: [string]) => {
      const error = full(file);
      return error ? Promise.reject(error) : writeFile(file, ...rest);
    }) as typeof writeFile);
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 1 << 20 });
    await expect(journal.open('c')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(fs.readdirSync(path.join(journalDir, 'groups'))).toEqual([]);
  });

  it("reads a record naming a blob outside the group's own as damaged: show never reads that file, undo never writes it back", async () => {
    fs.writeFileSync(path.join(base, 'secret'), 'SECRET OUTSIDE\n');
    const journal = new LocalJournal({ dir: journalDir, maxBytes: 1 << 20 });
    const id = await rewrote(journal, 'a.txt');
    const records = fs.readFileSync(groupFile(id, 'records.jsonl'), 'utf8');
    // Edited to point the pre-image at a file outside the group.
    fs.writeFileSync(groupFile(id, 'records.jsonl'), records.replace(/"blob":"\d+"/, '"blob":"../../../../secret"'));
    const detail = await journal.show(id);
    expect(JSON.stringify(detail)).not.toContain('SECRET OUTSIDE');
    expect(detail.changes.some((c) => c.path === at('a.txt') && c.kept)).toBe(false);
    await journal.apply(id, guards);
    expect(fs.readFileSync(at('a.txt'), 'utf8')).not.toContain('SECRET OUTSIDE');
  });
});
