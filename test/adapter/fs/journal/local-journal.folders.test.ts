/** Undo never takes away what the owner did after the model: folders that replaced files, edits made while undo runs. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';
import { makeUnwritable } from '../../../helpers/unwritable.js';

const { at, journalDir } = useJournalFolders();
const guards = allowingAll;

async function change(journal: LocalJournal, id: string, tool: string, paths: string[], depth: 'shallow' | 'tree', act: () => void) {
  await journal.before(id, tool, { paths, depth });
  act();
  await journal.after(id, tool, paths);
}

/** The model deletes the file `notes` and makes a folder there (fs.delete, then fs.mkdir). */
async function fileBecomesFolder(journal: LocalJournal, id: string) {
  fs.writeFileSync(at('notes'), 'the owner notes\n');
  await change(journal, id, 'fs.delete', [at('notes')], 'tree', () => fs.rmSync(at('notes')));
  await change(journal, id, 'fs.mkdir', [at('notes')], 'shallow', () => fs.mkdirSync(at('notes')));
}

describe('undo and a folder that replaced a file', () => {
  it('leaves the folder, and the owner work saved in it, and reports a conflict', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await fileBecomesFolder(journal, id);
    fs.writeFileSync(at('notes/owner-work.txt'), 'written after the model\n');
    fs.mkdirSync(at('notes/sub'));
    fs.writeFileSync(at('notes/sub/more.txt'), 'more\n');

    expect((await journal.show(id)).changes).toMatchObject([{ path: at('notes'), change: 'replaced', changedSince: true }]);
    const outcome = await journal.apply(id, guards());
    expect(outcome.restored).toEqual([]);
    expect(outcome.conflicts).toEqual([{ path: at('notes'), why: 'it was changed after the model changed it' }]);
    expect(fs.readFileSync(at('notes/owner-work.txt'), 'utf8')).toBe('written after the model\n');
    expect(fs.readFileSync(at('notes/sub/more.txt'), 'utf8')).toBe('more\n');
  });

  it('puts the file back when the folder holds only what the model put in it', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await fileBecomesFolder(journal, id);
    await change(journal, id, 'fs.write', [at('notes/model.txt')], 'shallow', () => fs.writeFileSync(at('notes/model.txt'), 'model\n'));
    await change(journal, id, 'fs.mkdir', [at('notes/deeper/still')], 'shallow', () => fs.mkdirSync(at('notes/deeper/still'), { recursive: true }));
    const outcome = await journal.apply(id, guards());
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.skipped).toEqual([]);
    expect(fs.readFileSync(at('notes'), 'utf8')).toBe('the owner notes\n');
  });

  it('leaves a folder moved over a file when the owner changed what it holds', async () => {
    fs.writeFileSync(at('report'), 'old report\n');
    fs.mkdirSync(at('drafts'));
    fs.writeFileSync(at('drafts/chapter1.txt'), 'draft\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('report')], 'tree', () => fs.rmSync(at('report')));
    await change(journal, id, 'fs.move', [at('drafts'), at('report')], 'tree', () => fs.renameSync(at('drafts'), at('report')));
    fs.writeFileSync(at('report/chapter1.txt'), 'the owner rewrote chapter 1\n');

    const outcome = await journal.apply(id, guards());
    expect(outcome.conflicts.map((c) => c.path)).toEqual([at('report')]);
    expect(fs.readFileSync(at('report/chapter1.txt'), 'utf8')).toBe('the owner rewrote chapter 1\n');
  });

  it('leaves a folder the owner fills while undo runs, after it was judged', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await fileBecomesFolder(journal, id);
    await change(journal, id, 'fs.write', [at('notes/model.txt')], 'shallow', () => fs.writeFileSync(at('notes/model.txt'), 'model\n'));
    const outcome = await journal.apply(
      id,
      guards((p) => {
        if (p === at('notes')) fs.writeFileSync(at('notes/owner.txt'), 'saved during undo\n');
      }),
    );
    // The model's file in it was taken away; the folder, with the owner's file, stays.
    expect(outcome.restored).toEqual([at('notes/model.txt')]);
    expect(outcome.conflicts).toEqual([{ path: at('notes'), why: 'what the folder holds changed while undo ran, so it is left as it is' }]);
    expect(fs.readdirSync(at('notes'))).toEqual(['owner.txt']);
  });

  it('leaves a folder that replaced a file in a group recorded without its fingerprint', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await fileBecomesFolder(journal, id);
    // As an earlier version recorded it: the folder's stamp after, without what it held.
    const records = path.join(journalDir(), 'groups', id, 'records.jsonl');
    const lines = fs
      .readFileSync(records, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { k: string; s?: { tree?: string } });
    for (const r of lines) if (r.k === 'post') delete r.s!.tree;
    fs.writeFileSync(records, lines.map((r) => `${JSON.stringify(r)}\n`).join(''));
    fs.writeFileSync(at('notes/owner-work.txt'), 'mine\n');

    const reader = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    expect((await reader.show(id)).changes).toMatchObject([{ path: at('notes'), changedSince: true }]);
    const outcome = await reader.apply(id, guards());
    expect(outcome.conflicts).toEqual([{ path: at('notes'), why: expect.stringMatching(/was not recorded, so it is left as it is/) }]);
    expect(fs.readFileSync(at('notes/owner-work.txt'), 'utf8')).toBe('mine\n');
  });
});

describe('undo and folders that are gone', () => {
  it('makes again the folders a removed file was in (git_switch removes a folder it emptied)', async () => {
    fs.mkdirSync(at('dir/sub'), { recursive: true, mode: 0o750 });
    fs.chmodSync(at('dir'), 0o750);
    fs.writeFileSync(at('dir/sub/x.txt'), 'tracked on main\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'git.switch', [at('dir/sub/x.txt')], 'shallow', () => fs.rmSync(at('dir'), { recursive: true }));

    const outcome = await journal.apply(id, guards());
    expect(outcome.restored).toEqual([at('dir/sub/x.txt')]);
    expect(outcome.notes).toEqual([{ path: at('dir/sub/x.txt'), why: `the folder it was in was gone, and was made again (${at('dir')}, ${at('dir/sub')})` }]);
    expect(fs.readFileSync(at('dir/sub/x.txt'), 'utf8')).toBe('tracked on main\n');
    expect(fs.statSync(at('dir/sub')).mode & 0o777).toBe(fs.statSync(at()).mode & 0o777);
  });

  it('puts back a tree moved into a folder the model made, and takes that folder away, with no conflict', async () => {
    fs.mkdirSync(at('p/q'), { recursive: true });
    fs.writeFileSync(at('p/q/r'), 'R\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('p/q/r')], 'shallow', () => fs.writeFileSync(at('p/q/r'), 'R2\n'));
    await change(journal, id, 'fs.move', [at('p/q'), at('q2')], 'tree', () => fs.renameSync(at('p/q'), at('q2')));
    await change(journal, id, 'fs.move', [at('p'), at('q2/p')], 'tree', () => fs.renameSync(at('p'), at('q2/p')));
    // q2/r held R2 only during the group: it goes with q2.
    await change(journal, id, 'fs.write', [at('q2/r')], 'shallow', () => fs.writeFileSync(at('q2/r'), 'R3\n'));

    const outcome = await journal.apply(id, guards());
    expect(outcome).toMatchObject({ conflicts: [], skipped: [] });
    expect(fs.readdirSync(at()).sort()).toEqual(['p']);
    expect(fs.readdirSync(at('p'))).toEqual(['q']);
    expect(fs.readdirSync(at('p/q'))).toEqual(['r']);
    expect(fs.readFileSync(at('p/q/r'), 'utf8')).toBe('R\n');
  });

  it('takes away again the folders it made for a path it then could not put back', async () => {
    fs.mkdirSync(at('dir'));
    fs.writeFileSync(at('dir/x.txt'), 'the owner\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.write', [at('dir/x.txt')], 'shallow', () => fs.writeFileSync(at('dir/x.txt'), 'the model\n'));
    await change(journal, id, 'fs.write', [at('made.txt')], 'shallow', () => fs.writeFileSync(at('made.txt'), 'new\n'));

    // The owner removes dir while undo runs (after every path was judged, as undo takes made.txt away first).
    const outcome = await journal.apply(
      id,
      guards((p) => p === at('made.txt') && fs.rmSync(at('dir'), { recursive: true })),
    );
    expect(outcome.restored).toEqual([at('made.txt')]);
    expect(outcome.conflicts).toEqual([{ path: at('dir/x.txt'), why: 'it was changed while undo ran, so it is left as it is' }]);
    expect(fs.readdirSync(at())).toEqual([]);
  });
});

/** Applies the group's undo while `folder` cannot be changed (chmod 555, or chattr +i as root); why not, if it cannot be made so here. */
async function applyLocked(journal: LocalJournal, id: string, folder: string) {
  const locked = makeUnwritable(folder);
  if (typeof locked === 'string') return locked;
  try {
    return await journal.apply(id, guards());
  } finally {
    locked.release();
  }
}

describe('an undo that cannot finish (a folder the owner made read-only)', () => {
  it('takes nothing away, says so, and puts it all back when applied again after the folder is writable', async (context) => {
    fs.mkdirSync(at('proj/X/sub'), { recursive: true });
    for (const name of ['a', 'b', 'sub/deep']) fs.writeFileSync(at('proj/X', name), `owner ${name}\n`);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.move', [at('proj/X'), at('proj/Y')], 'tree', () => fs.renameSync(at('proj/X'), at('proj/Y')));

    const first = await applyLocked(journal, id, at('proj'));
    if (typeof first === 'string') return context.skip(first);
    // The moved folder, the only copy of the owner's files outside the journal, is whole.
    expect(first.restored).toEqual([]);
    expect(first.skipped.map((s) => [s.path, s.retry])).toEqual([
      [at('proj/Y'), true],
      [at('proj/X'), true],
    ]);
    expect(fs.readdirSync(at('proj'))).toEqual(['Y']);
    expect(fs.readFileSync(at('proj/Y/sub/deep'), 'utf8')).toBe('owner sub/deep\n');
    expect((await journal.list()).groups[0]!.state).toBe('partly undone');

    // Later changes past the bound drop older groups, never one whose failed paths wait to be tried again.
    const later = await journal.open('c');
    for (let i = 0; i < 6; i++) {
      fs.writeFileSync(at(`big${i}`), Buffer.alloc(200 * 1024, i));
      await change(journal, later, 'fs.delete', [at(`big${i}`)], 'tree', () => fs.rmSync(at(`big${i}`)));
    }
    expect((await journal.list()).groups.map((g) => g.id)).toContain(id);

    const again = await journal.apply(id, guards());
    expect(again).toMatchObject({ appliedAt: first.appliedAt, retriedAt: expect.any(String), conflicts: [], skipped: [] });
    expect([...again.restored].sort()).toEqual([at('proj/X'), at('proj/Y')]);
    expect(fs.readdirSync(at('proj'))).toEqual(['X']);
    expect(fs.readFileSync(at('proj/X/sub/deep'), 'utf8')).toBe('owner sub/deep\n');
    expect((await journal.show(id)).undo).toEqual(again);
    await expect(journal.apply(id, guards())).rejects.toMatchObject({ message: expect.stringMatching(/already undone/) });
  });
});

describe('trying again what an undo left', () => {
  it('compares it with how that undo left it (its own removals inside done), not with what the model left', async (context) => {
    fs.mkdirSync(at('P'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.mkdir', [at('P/Y')], 'shallow', () => fs.mkdirSync(at('P/Y')));
    await change(journal, id, 'fs.write', [at('P/Y/f')], 'shallow', () => fs.writeFileSync(at('P/Y/f'), 'model\n'));
    await change(journal, id, 'fs.mkdir', [at('P/Y/Z')], 'shallow', () => fs.mkdirSync(at('P/Y/Z')));

    const first = await applyLocked(journal, id, at('P'));
    if (typeof first === 'string') return context.skip(first);
    expect(first.restored.sort()).toEqual([at('P/Y/Z'), at('P/Y/f')]);
    expect(first.skipped).toMatchObject([{ path: at('P/Y'), retry: true }]);

    const again = await journal.apply(id, guards());
    expect(again.conflicts).toEqual([]);
    expect(again.restored).toContain(at('P/Y'));
    expect(fs.readdirSync(at('P'))).toEqual([]);
    expect((await journal.list()).groups[0]!.state).toBe('undone');
  });
});

describe('a folder on the way swapped for a link before the pre-image is taken', () => {
  it('keeps nothing from where the link leads, and says why', async () => {
    // The policy resolved A/notes.txt while A was a folder; a program then put a link to another folder in its place.
    fs.mkdirSync(at('outside'));
    fs.writeFileSync(at('outside/notes.txt'), 'a secret from outside\n');
    fs.symlinkSync(at('outside'), at('A'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('A/notes.txt')], 'tree', () => fs.rmSync(at('A/notes.txt')));

    expect((await journal.show(id)).changes).toMatchObject([
      { path: at('A/notes.txt'), kept: false, why: expect.stringContaining(`${at('A')} was replaced while its earlier state was being kept`) },
    ]);
    const kept = fs.readdirSync(journalDir(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(kept.map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8')).join('')).not.toContain('a secret from outside');
  });
});

describe('a file the owner saves into a folder the model made, between two of its changes', () => {
  it('is not taken for what the model left: undo leaves the folder with it, and says so', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.mkdir', [at('docs')], 'shallow', () => fs.mkdirSync(at('docs')));
    await change(journal, id, 'fs.write', [at('docs/draft.md')], 'shallow', () => fs.writeFileSync(at('docs/draft.md'), '# draft\n'));
    fs.writeFileSync(at('docs/my-notes.md'), 'an hour of notes\n');
    await change(journal, id, 'fs.write', [at('docs/draft.md')], 'shallow', () => fs.writeFileSync(at('docs/draft.md'), '# draft v2\n'));

    const outcome = await journal.apply(id, guards());
    expect(outcome.conflicts.map((c) => c.path)).toEqual([at('docs')]);
    expect(fs.readFileSync(at('docs/my-notes.md'), 'utf8')).toBe('an hour of notes\n');
  });
});

describe('a change the server never recorded as done (killed in the middle of a delete)', () => {
  it('is put back where nothing is there now, naming what the removal left beside it', async () => {
    fs.mkdirSync(at('big'));
    fs.writeFileSync(at('big/a.txt'), 'a\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.delete', { paths: [at('big')], depth: 'tree' });
    fs.renameSync(at('big'), at('.removing-0123456789abcdef'));

    const outcome = await journal.apply(id, guards());
    expect(outcome.restored).toEqual([at('big')]);
    expect(outcome.notes).toEqual([
      {
        path: at('big'),
        why: expect.stringMatching(
          new RegExp(
            `^its change was never recorded as done .*nothing is there now, so it is put back as it was; .* may be in ${at('.removing-0123456789abcdef')}$`,
          ),
        ),
      },
    ]);
    expect(fs.readFileSync(at('big/a.txt'), 'utf8')).toBe('a\n');
    expect(fs.readFileSync(at('.removing-0123456789abcdef/a.txt'), 'utf8')).toBe('a\n');
    expect((await journal.list()).groups[0]!.state).toBe('undone');
  });

  it('is left as it is where something is there that is not as before (undo cannot tell whose it is)', async () => {
    fs.mkdirSync(at('half'));
    fs.writeFileSync(at('half/a.txt'), 'a\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.delete', { paths: [at('half')], depth: 'tree' });
    fs.writeFileSync(at('half/a.txt'), 'someone else\n');

    const outcome = await journal.apply(id, guards());
    expect(outcome.restored).toEqual([]);
    expect(outcome.skipped).toEqual([{ path: at('half'), why: expect.stringMatching(/^its change was never recorded as done .*it is left as it is/) }]);
    expect((await journal.list()).groups[0]!.state).toBe('partly undone');
    expect(fs.readFileSync(at('half/a.txt'), 'utf8')).toBe('someone else\n');
  });
});

describe('an undo stopped in the middle (killed), then applied again', () => {
  it('names what it left beside a path it now finds changed', async () => {
    fs.mkdirSync(at('D'));
    fs.writeFileSync(at('D/a.txt'), 'owner\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await change(journal, id, 'fs.delete', [at('D')], 'tree', () => fs.rmSync(at('D'), { recursive: true }));
    // What the killed undo had done: the folder rebuilt under its temporary name, and an empty one at D.
    fs.mkdirSync(at('.undo-00112233445566ff'));
    fs.writeFileSync(at('.undo-00112233445566ff/a.txt'), 'owner\n');
    fs.mkdirSync(at('D'));

    const outcome = await journal.apply(id, guards());
    expect(outcome.conflicts).toEqual([
      {
        path: at('D'),
        why: `something was put there after the model removed it; what a removal or an undo stopped in the middle left may be in ${at('.undo-00112233445566ff')}`,
      },
    ]);
  });
});
