/** What undo makes when it puts a file back: its owner, and no setuid or setgid bit on a copy of someone else's program; a name as long as the filesystem allows. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();
const guards = allowingAll();
const isRoot = process.getuid?.() === 0;

/** The model deletes `paths` (fs.delete, a whole tree); the group's id. */
async function deleted(journal: LocalJournal, ...paths: string[]): Promise<string> {
  const id = await journal.open('c');
  await journal.before(id, 'fs.delete', { paths, depth: 'tree' });
  for (const p of paths) fs.rmSync(p, { recursive: true });
  await journal.after(id, 'fs.delete', paths);
  return id;
}

const owner = (p: string) => {
  const s = fs.lstatSync(p);
  return `${s.uid}:${s.gid} ${(s.mode & 0o7777).toString(8)}`;
};

describe('restoring a file of another user', () => {
  it.runIf(isRoot)('run as root, gives a file and a folder back to their owners, setuid and setgid bits and all', async () => {
    fs.mkdirSync(at('shared'));
    fs.writeFileSync(at('shared/helper'), '#!/bin/sh\nid -u\n');
    fs.chownSync(at('shared/helper'), 1001, 1002);
    fs.chmodSync(at('shared/helper'), 0o6755);
    fs.chownSync(at('shared'), 1001, 1002);
    fs.chmodSync(at('shared'), 0o2775);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await deleted(journal, at('shared'));

    const outcome = await journal.apply(id, guards);
    expect(outcome.restored).toEqual([at('shared')]);
    expect(outcome.notes).toBeUndefined();
    expect(owner(at('shared'))).toBe('1001:1002 2775');
    expect(owner(at('shared/helper'))).toBe('1001:1002 6755');
  });

  it.runIf(isRoot)('run as root, gives a link back to its owner, and a folder made again to the owner of the folder it is in', async () => {
    fs.mkdirSync(at('home'));
    fs.chownSync(at('home'), 1001, 1002);
    fs.symlinkSync('elsewhere', at('home/link'));
    fs.lchownSync(at('home/link'), 1001, 1002);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await deleted(journal, at('home/link'));
    fs.rmdirSync(at('home'));
    fs.mkdirSync(at('home'));
    fs.chownSync(at('home'), 1001, 1002);
    expect((await journal.apply(id, guards)).restored).toEqual([at('home/link')]);
    expect(`${fs.lstatSync(at('home/link')).uid}:${fs.lstatSync(at('home/link')).gid}`).toBe('1001:1002');

    // The folder a file was in is gone (git_switch removes a folder it emptied): made again as its parent's.
    fs.mkdirSync(at('home/sub'));
    fs.writeFileSync(at('home/sub/f.txt'), 'f\n');
    const other = await deleted(journal, at('home/sub/f.txt'));
    fs.rmdirSync(at('home/sub'));
    expect((await journal.apply(other, guards)).restored).toEqual([at('home/sub/f.txt')]);
    expect(owner(at('home/sub')).split(' ')[0]).toBe('1001:1002');
  });

  it('leaves the setuid and setgid bits off a file whose owner it cannot give back, and says so', async () => {
    fs.writeFileSync(at('helper'), '#!/bin/sh\nid -u\n');
    fs.chmodSync(at('helper'), 0o4755);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await deleted(journal, at('helper'));
    // As a journal written before owners were recorded holds it: whose it was is unknown.
    const records = path.join(journalDir(), 'groups', id, 'records.jsonl');
    const lines = fs
      .readFileSync(records, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { k: string; i?: { uid?: number; gid?: number } });
    for (const r of lines) if (r.k === 'pre') r.i = { ...r.i, uid: undefined, gid: undefined };
    fs.writeFileSync(records, lines.map((r) => `${JSON.stringify(r)}\n`).join(''));

    const outcome = await new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 }).apply(id, guards);
    expect(outcome.restored).toEqual([at('helper')]);
    expect(outcome.notes).toEqual([
      { path: at('helper'), why: expect.stringMatching(/^its setuid and setgid bits were left off: it belonged to an owner the journal did not record/) },
    ]);
    expect(fs.statSync(at('helper')).mode & 0o7777).toBe(0o755);
    expect(fs.readFileSync(at('helper'), 'utf8')).toBe('#!/bin/sh\nid -u\n');
  });

  it('keeps the mode of a file that was the undoing user own, setuid included', async () => {
    fs.writeFileSync(at('mine'), 'x');
    fs.chmodSync(at('mine'), 0o4750);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await deleted(journal, at('mine'));
    const outcome = await journal.apply(id, guards);
    expect(outcome.notes).toBeUndefined();
    expect(fs.statSync(at('mine')).mode & 0o7777).toBe(0o4750);
  });
});

describe('restoring a file', () => {
  it('puts back a file whose name is as long as the filesystem allows', async () => {
    const name = `${'n'.repeat(250)}.txt`;
    fs.writeFileSync(at(name), 'before\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.write', { paths: [at(name)], depth: 'shallow' });
    fs.writeFileSync(at(name), 'after\n');
    await journal.after(id, 'fs.write', [at(name)]);

    const outcome = await journal.apply(id, guards);
    expect(outcome).toMatchObject({ restored: [at(name)], skipped: [], conflicts: [] });
    expect(fs.readFileSync(at(name), 'utf8')).toBe('before\n');
    expect(fs.readdirSync(at())).toEqual([name]);
  });
});
