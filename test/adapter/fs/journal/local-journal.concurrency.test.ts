/** Undo against others at work: two undos of one group at once, the owner saving while undo runs, a lock a crashed undo left. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();
const guards = allowingAll;
const journalAt = () => new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });

/** A group in which the model rewrote `count` files. */
async function rewrote(journal: LocalJournal, count: number): Promise<string> {
  const id = await journal.open('c');
  for (let i = 0; i < count; i++) {
    fs.writeFileSync(at(`f${i}`), `original ${i}\n`);
    await journal.before(id, 'fs.write', { paths: [at(`f${i}`)], depth: 'shallow' });
    fs.writeFileSync(at(`f${i}`), `model ${i}\n`);
    await journal.after(id, 'fs.write', [at(`f${i}`)]);
  }
  return id;
}

describe('undo at the same time as others', () => {
  it('runs one of two undos of a group asked at once; the other is refused in words', async () => {
    const id = await rewrote(journalAt(), 20);
    // The tray's journal and the CLI's: separate instances over the same folder.
    const results = await Promise.allSettled([journalAt().apply(id, guards()), journalAt().apply(id, guards())]);
    const done = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(done).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringMatching(/being undone|already undone/) });
    for (let i = 0; i < 20; i++) expect(fs.readFileSync(at(`f${i}`), 'utf8')).toBe(`original ${i}\n`);
    await expect(journalAt().apply(id, guards())).rejects.toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringMatching(/already undone/) });
    expect(fs.existsSync(path.join(journalDir(), 'groups', id, 'undoing'))).toBe(false);
  });

  it('takes over the lock of an undo whose process is gone, and not one that still runs', async () => {
    const id = await rewrote(journalAt(), 1);
    const lock = path.join(journalDir(), 'groups', id, 'undoing');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname() }));
    await expect(journalAt().apply(id, guards())).rejects.toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringMatching(/being undone/) });
    fs.writeFileSync(lock, JSON.stringify({ pid: 2 ** 30, host: (await import('node:os')).hostname() }));
    expect((await journalAt().apply(id, guards())).restored).toEqual([at('f0')]);
  });

  it('leaves a file the owner saves while undo runs, after it was judged, and reports it', async () => {
    const journal = journalAt();
    const id = await rewrote(journal, 2);
    const outcome = await journal.apply(
      id,
      guards((p) => {
        if (p === at('f1')) fs.writeFileSync(at('f1'), 'the owner saved this during undo\n');
      }),
    );
    expect(outcome.restored).toEqual([at('f0')]);
    expect(outcome.conflicts).toEqual([{ path: at('f1'), why: 'it was changed while undo ran, so it is left as it is' }]);
    expect(fs.readFileSync(at('f1'), 'utf8')).toBe('the owner saved this during undo\n');
    expect(fs.readdirSync(at()).sort()).toEqual(['f0', 'f1']);
  });
});
