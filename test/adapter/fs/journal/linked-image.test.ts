/**
 * Pre-images kept by a hard link to the replaced inode, through the real writer (write-text.ts)
 * on real files: what is linked and what is copied instead, that undo puts content and mode back
 * without sharing an inode with the journal, and the attacks (a program writing the old file
 * through a descriptor it kept, another user, hard links, a journal on another filesystem).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GuardedPath, WriteMode, WriteOptions } from '../../../../adapter/contract/files.js';
import type { UndoGuards } from '../../../../adapter/contract/journal.js';
import { CHANGED_AFTER } from '../../../../adapter/fs/journal/linked-image.js';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { writeTextFile } from '../../../../adapter/fs/write-text.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
let base: string;
let work: string;
const at = (name: string) => path.join(work, name);
const guard = (p: string): GuardedPath => ({ path: p, confirm: () => {} });
const guards: UndoGuards = { resolve: async (p) => guard(p), repository: async () => [] };

beforeEach(() => {
  base = makeTempDir();
  work = path.join(base, 'work');
  fs.mkdirSync(work);
});
afterEach(() => removeDir(base));

function journal(dir = path.join(base, 'app', 'journal'), maxBytes = 1 << 20): LocalJournal {
  return new LocalJournal({ dir, maxBytes });
}

/** fs.write as the tool host records it: the file handed over by the writer just before it changes. */
async function write(j: LocalJournal, id: string, file: string, content: string, mode: WriteMode = 'overwrite', options: WriteOptions = {}) {
  await j.before(id, 'fs.write', { paths: [file], depth: 'shallow', handover: true });
  try {
    return await writeTextFile(guard(file), content, mode, {
      ...options,
      beforeChange: (entry, f, replacing) => j.handOver(id, 'fs.write', file, entry, f, replacing),
    });
  } finally {
    await j.after(id, 'fs.write', [file]);
  }
}

/** A file holding "old", and a journal group told it is about to be handed over (as fs.write's call begins). */
async function handingOver(name: string, dir?: string): Promise<{ file: string; j: LocalJournal; id: string }> {
  const file = at(name);
  fs.writeFileSync(file, 'old\n');
  const j = journal(dir);
  const id = await j.open('test');
  await j.before(id, 'fs.write', { paths: [file], depth: 'shallow', handover: true });
  return { file, j, id };
}

/** The kinds of a group's records, in order (pre, post, git). */
function recordKinds(id: string, dir = path.join(base, 'app', 'journal')): string[] {
  const lines = fs
    .readFileSync(path.join(dir, 'groups', id, 'records.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return lines.map((line) => (JSON.parse(line) as { k: string }).k);
}

function blobs(dir: string, id: string): string[] {
  const folder = path.join(dir, 'groups', id, 'blobs');
  return fs.readdirSync(folder).map((name) => path.join(folder, name));
}

describe('a replaced file kept by a hard link', () => {
  it('keeps the old inode itself, and undo puts content, mode and time back on an inode of its own', async () => {
    const file = at('a.txt');
    fs.writeFileSync(file, 'old\n', { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    const old = fs.statSync(file);
    const j = journal();
    const id = await j.open('test');

    await write(j, id, file, 'new\n');
    const [blob] = blobs(path.join(base, 'app', 'journal'), id);
    const held = fs.statSync(blob!);
    // The pre-image and the stamp after it, written together once the change was done.
    expect(recordKinds(id)).toEqual(['pre', 'post']);
    // The journal's name is the only one left: the old inode, not a copy (and the write did not refuse it as shared).
    expect([held.ino, held.nlink, fs.readFileSync(blob!, 'utf8')]).toEqual([old.ino, 1, 'old\n']);
    expect(fs.statSync(file).nlink).toBe(1);

    expect((await j.show(id)).changes[0]).toMatchObject({ path: file, kept: true, diff: expect.stringContaining('+old') });
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file], conflicts: [], skipped: [] });
    const back = fs.statSync(file);
    expect([fs.readFileSync(file, 'utf8'), back.mode & 0o7777, Math.round(back.mtimeMs / 10)]).toEqual(['old\n', 0o640, Math.round(old.mtimeMs / 10)]);
    // Restored by a copy: writing the file in place now never reaches the journal's pre-image.
    expect(back.ino).not.toBe(held.ino);
    fs.appendFileSync(file, 'later\n');
    expect(fs.readFileSync(blob!, 'utf8')).toBe('old\n');
  });

  it('refuses to undo from a pre-image a program changed through the old file it still had open', async () => {
    const file = at('held-open.txt');
    fs.writeFileSync(file, 'old\n');
    const j = journal();
    const id = await j.open('test');
    const fd = fs.openSync(file, 'r+');
    try {
      await write(j, id, file, 'model\n');
      fs.writeSync(fd, 'EVIL', 0);
    } finally {
      fs.closeSync(fd);
    }
    expect((await j.show(id)).changes[0]).toMatchObject({ kept: false, why: CHANGED_AFTER });
    expect((await j.apply(id, guards)).skipped).toEqual([{ path: file, why: `its earlier state was not kept: ${CHANGED_AFTER}` }]);
    expect(fs.readFileSync(file, 'utf8')).toBe('model\n');
  });

  it('takes, in the pre-image, a write made in place between the link and the rename (as it was just before the change)', async () => {
    const { file, j, id } = await handingOver('raced.txt');
    await writeTextFile(guard(file), 'model\n', 'overwrite', {
      beforeChange: async (entry, f, replacing) => {
        await j.handOver(id, 'fs.write', file, entry, f, replacing);
        fs.appendFileSync(file, 'raced\n');
      },
    });
    await j.after(id, 'fs.write', [file]);
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file] });
    expect(fs.readFileSync(file, 'utf8')).toBe('old\nraced\n');
  });

  it('gives the live file its own inode back when the rename never came, so its next write is not refused', async () => {
    const { file, j, id } = await handingOver('kept.txt');
    await j.handOver(id, 'fs.write', file, file, fs.lstatSync(file), true);
    expect(fs.statSync(file).nlink).toBe(2);
    await j.after(id, 'fs.write', [file]);
    expect(fs.statSync(file).nlink).toBe(1);
    await write(j, id, file, 'new\n');
    const [blob] = blobs(path.join(base, 'app', 'journal'), id);
    expect([fs.readFileSync(blob!, 'utf8'), fs.statSync(blob!).mode & 0o777]).toEqual(['old\n', 0o600]);
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file], skipped: [] });
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
  });

  it('gives a file back its own inode when a crash came between the link and the rename, at the next start', async () => {
    const dir = path.join(base, 'app', 'journal');
    const { file, j: crashed, id } = await handingOver('crashed.txt', dir);
    await crashed.handOver(id, 'fs.write', file, file, fs.lstatSync(file), true);
    expect(fs.statSync(file).nlink).toBe(2);
    // The pre-image's line waits for its stamp after, which never came: nothing half-recorded to undo.
    expect(fs.existsSync(path.join(dir, 'groups', id, 'records.jsonl'))).toBe(false);
    expect((await crashed.list()).groups[0]).toMatchObject({ id, files: 0 });
    await journal(dir).open('test');
    const [blob] = blobs(dir, id);
    expect([fs.statSync(file).nlink, fs.readFileSync(blob!, 'utf8'), fs.statSync(blob!).ino === fs.statSync(file).ino]).toEqual([1, 'old\n', false]);
    await expect(writeTextFile(guard(file), 'new\n', 'overwrite')).resolves.toMatchObject({ created: false });
  });

  it.skipIf(!ROOT)('is never readable by another user who could not read the file where it was', async () => {
    for (const dir of [base, work]) fs.chmodSync(dir, 0o755);
    const file = at('shared.txt');
    fs.writeFileSync(file, 'old\n', { mode: 0o644 });
    const j = journal();
    const id = await j.open('test');
    await write(j, id, file, 'new\n');
    const [blob] = blobs(path.join(base, 'app', 'journal'), id);
    const asNobody = (p: string) => () => execFileSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'cat', p], { stdio: 'pipe' });
    // The old inode keeps its 0644, but the journal's folders are the owner's only.
    expect(fs.statSync(blob!).mode & 0o777).toBe(0o644);
    expect(asNobody(file)().toString()).toBe('new\n');
    expect(asNobody(blob!)).toThrow(/Permission denied/);
  });
});

describe('a pre-image copied instead of linked', () => {
  it('copies a file changed in place (an append)', async () => {
    const file = at('log.txt');
    fs.writeFileSync(file, 'one\n');
    const j = journal();
    const id = await j.open('test');
    await write(j, id, file, 'two\n', 'append', { revealHash: true });
    const [blob] = blobs(path.join(base, 'app', 'journal'), id);
    expect(fs.statSync(blob!).ino).not.toBe(fs.statSync(file).ino);
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file] });
    expect(fs.readFileSync(file, 'utf8')).toBe('one\n');
  });

  it('copies a file with other hard links (written only where the owner allowed it): a later write through them leaves the history alone', async () => {
    const file = at('linked.txt');
    const other = path.join(base, 'other-name.txt');
    fs.writeFileSync(file, 'old\n');
    fs.linkSync(file, other);
    const j = journal();
    const id = await j.open('test');
    await expect(write(j, id, file, 'refused\n')).rejects.toThrow(/has 2 hard links/);
    await write(j, id, file, 'new\n', 'overwrite', { allowHardLinks: true });
    const [blob] = blobs(path.join(base, 'app', 'journal'), id);
    expect(blobs(path.join(base, 'app', 'journal'), id)).toHaveLength(1);
    expect(fs.statSync(blob!).ino).not.toBe(fs.statSync(other).ino);
    fs.writeFileSync(other, 'rewritten elsewhere\n');
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file] });
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
  });

  it.skipIf(!ROOT)("copies another user's file, owner-only: the journal never holds an inode of theirs", async () => {
    const file = at('theirs.txt');
    fs.writeFileSync(file, 'old\n', { mode: 0o644 });
    fs.chownSync(file, NOBODY, NOBODY);
    const j = journal();
    const id = await j.open('test');
    await write(j, id, file, 'new\n');
    const [blob] = blobs(path.join(base, 'app', 'journal'), id);
    const held = fs.statSync(blob!);
    // The pre-image and the stamp after it, written together once the change was done.
    expect(recordKinds(id)).toEqual(['pre', 'post']);
    expect([held.uid, held.mode & 0o777]).toEqual([0, 0o600]);
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file] });
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
  });

  it('copies when the journal is on another filesystem (link fails with EXDEV)', async (context) => {
    if (!fs.existsSync('/dev/shm') || fs.statSync('/dev/shm').dev === fs.statSync(work).dev) return context.skip();
    const elsewhere = fs.mkdtempSync('/dev/shm/journal-test-');
    try {
      const file = at('a.txt');
      fs.writeFileSync(file, 'old\n');
      const j = journal(path.join(elsewhere, 'journal'));
      const id = await j.open('test');
      await write(j, id, file, 'new\n');
      expect(fs.readFileSync(blobs(path.join(elsewhere, 'journal'), id)[0]!, 'utf8')).toBe('old\n');
      expect(await j.apply(id, guards)).toMatchObject({ restored: [file] });
      expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('the journal around handed-over files', () => {
  it('records nothing for a write that stopped before changing the file, and keeps the next one', async () => {
    const file = at('a.txt');
    fs.writeFileSync(file, 'old\n');
    const j = journal();
    const id = await j.open('test');
    await expect(write(j, id, file, 'x', 'overwrite', { expectedSha256: '0'.repeat(64) })).rejects.toThrow(/does not match/);
    await write(j, id, file, 'new\n');
    expect(await j.apply(id, guards)).toMatchObject({ restored: [file], skipped: [] });
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
  });

  it('drops a group with linked pre-images to stay within the bound, leaving the live files as they are', async () => {
    const dir = path.join(base, 'app', 'journal');
    const j = journal(dir, 1000);
    const first = await j.open('test');
    fs.writeFileSync(at('a.txt'), 'a'.repeat(200));
    await write(j, first, at('a.txt'), 'new a');
    const second = await j.open('test');
    for (const name of ['b', 'c', 'd', 'e', 'f']) {
      fs.writeFileSync(at(name), name.repeat(200));
      await write(j, second, at(name), `new ${name}`);
    }
    expect((await j.list()).dropped.map((d) => d.id)).toEqual([first]);
    expect(fs.existsSync(path.join(dir, 'groups', first))).toBe(false);
    expect([fs.readFileSync(at('a.txt'), 'utf8'), fs.statSync(at('a.txt')).nlink]).toEqual(['new a', 1]);
  });
});
