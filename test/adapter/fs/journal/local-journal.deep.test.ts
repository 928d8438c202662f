/** Folders deeper than PATH_MAX (a delete takes them through opened folders, so undo must keep and put them back the same way), and nested deeper than a pre-image goes. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TREE_DEPTH } from '../../../../adapter/fs/journal/images.js';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { HANDLE_PATHS } from '../../../../adapter/fs/opened-path.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();
const NAME = 'd'.repeat(200);
const LEVELS = 25; // 25 x 201 bytes: past PATH_MAX (4096)

/** Walks `levels` folders down from `top` through descriptors (a path that long names nothing), and hands over the bottom one. */
function atBottom<T>(top: string, levels: number, use: (bottom: string) => T, make = false): T {
  let fd = fs.openSync(top, 'r');
  try {
    for (let i = 0; i < levels; i++) {
      if (make) fs.mkdirSync(`/proc/self/fd/${fd}/${NAME}`);
      const next = fs.openSync(`/proc/self/fd/${fd}/${NAME}`, 'r');
      fs.closeSync(fd);
      fd = next;
    }
    return use(`/proc/self/fd/${fd}`);
  } finally {
    fs.closeSync(fd);
  }
}

describe.skipIf(!HANDLE_PATHS)('a folder deeper than PATH_MAX', () => {
  it('is kept when the model deletes it, and put back whole', async () => {
    fs.mkdirSync(at('deep'));
    atBottom(at('deep'), LEVELS, (bottom) => fs.writeFileSync(`${bottom}/bottom.txt`, 'at the bottom\n', { mode: 0o640 }), true);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.delete', { paths: [at('deep')], depth: 'tree' });
    execFileSync('rm', ['-rf', at('deep')]);
    await journal.after(id, 'fs.delete', [at('deep')]);

    expect((await journal.show(id)).changes).toMatchObject([{ path: at('deep'), change: 'deleted', kept: true }]);
    const outcome = await journal.apply(id, allowingAll());
    expect(outcome).toMatchObject({ restored: [at('deep')], conflicts: [], skipped: [] });
    const bottom = atBottom(at('deep'), LEVELS, (dir) => [fs.readFileSync(`${dir}/bottom.txt`, 'utf8'), fs.statSync(`${dir}/bottom.txt`).mode & 0o777]);
    expect(bottom).toEqual(['at the bottom\n', 0o640]);
    execFileSync('rm', ['-rf', at('deep')]); // the temp folder's removal walks by path
  });

  it('is taken away again when the model made it, compared whole with what it left', async () => {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.mkdir', { paths: [at('made')], depth: 'shallow' });
    fs.mkdirSync(at('made'));
    atBottom(at('made'), LEVELS, (bottom) => fs.writeFileSync(`${bottom}/model.txt`, 'the model\n'), true);
    await journal.after(id, 'fs.mkdir', [at('made')]);

    const outcome = await journal.apply(id, allowingAll());
    expect(outcome).toMatchObject({ restored: [at('made')], conflicts: [], skipped: [] });
    expect(fs.existsSync(at('made'))).toBe(false);
  });
});

describe('a folder nested deeper than a pre-image goes', () => {
  it('is put back down to MAX_TREE_DEPTH, and says what below it was not kept (its record could not be written at all)', async () => {
    const chain = (levels: number) => path.join(at('nest'), ...Array.from({ length: levels }, () => 'n'));
    fs.mkdirSync(chain(MAX_TREE_DEPTH + 20), { recursive: true });
    fs.writeFileSync(path.join(chain(3), 'shallow.txt'), 'kept\n');
    fs.writeFileSync(path.join(chain(MAX_TREE_DEPTH + 20), 'deepest.txt'), 'too deep\n');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.delete', { paths: [at('nest')], depth: 'tree' });
    execFileSync('rm', ['-rf', at('nest')]);
    await journal.after(id, 'fs.delete', [at('nest')]);

    const [change] = (await journal.show(id)).changes;
    expect(change).toMatchObject({ path: at('nest'), kept: true, partly: [expect.stringMatching(new RegExp(`more than ${MAX_TREE_DEPTH} deep$`))] });
    const outcome = await journal.apply(id, allowingAll());
    expect(outcome.restored).toEqual([at('nest')]);
    expect(fs.readFileSync(path.join(chain(3), 'shallow.txt'), 'utf8')).toBe('kept\n');
    expect(fs.existsSync(chain(MAX_TREE_DEPTH))).toBe(true);
    expect(fs.existsSync(chain(MAX_TREE_DEPTH + 1))).toBe(false);
    // Said where it was put back, and the group is only partly undone.
    expect(outcome.notes).toEqual([{ path: at('nest'), why: expect.stringMatching(new RegExp(`^not put back: .*more than ${MAX_TREE_DEPTH} deep$`)) }]);
    expect((await journal.list()).groups[0]!.state).toBe('partly undone');
  });
});
