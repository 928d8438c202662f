/**
 * Undo racing a program in the folder it puts back (the model's own command, still running):
 * whatever that program swaps for a symlink to a place outside while undo makes files and folders
 * (the temporary a file is made as, a folder being filled), undo writes nothing there and changes
 * no mode there, and leaves no link at the owner's paths: what it could not put back is a conflict.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();
const watchers: fs.FSWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
});

/**
 * Watches `folder` and, each time an entry named by `wanted` appears there as a real file or
 * folder, moves it aside and puts a symlink to `outside` in its place (once per name).
 */
function swapForLinks(folder: string, outside: string, wanted: (name: string) => boolean): () => number {
  const swapped = new Set<string>();
  watchers.push(
    fs.watch(folder, (_event, name) => {
      if (!name || swapped.has(name) || !wanted(name)) return;
      const entry = path.join(folder, name);
      try {
        if (fs.lstatSync(entry).isSymbolicLink()) return;
        fs.renameSync(entry, path.join(folder, `${name}.aside`));
        fs.symlinkSync(outside, entry);
        swapped.add(name);
      } catch {
        // gone already (renamed into place): the next one
      }
    }),
  );
  return () => swapped.size;
}

function outsideFolder(): { folder: string; secret: string } {
  const folder = at('..', 'outside');
  fs.mkdirSync(folder, { mode: 0o700 });
  const secret = path.join(folder, 'secret');
  fs.writeFileSync(secret, 'the owner’s secret\n', { mode: 0o600 });
  return { folder, secret };
}

describe('undo racing a program that swaps what it makes for symlinks', () => {
  it('changes nothing outside through a swapped temporary, and leaves no link at the owner’s paths', async () => {
    const { secret } = outsideFolder();
    const before = fs.lstatSync(secret);
    fs.mkdirSync(at('d'));
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 24 });
    const id = await journal.open('c');
    for (let i = 0; i < 40; i++) {
      const file = at('d', `f${i}`);
      fs.writeFileSync(file, `owner ${i}\n`, { mode: 0o644 });
      await journal.before(id, 'fs.write', { paths: [file], depth: 'shallow' });
      fs.writeFileSync(file, `model ${i}\n`);
      await journal.after(id, 'fs.write', [file]);
    }
    const swaps = swapForLinks(at('d'), secret, (name) => name.startsWith('.undo-') && !name.endsWith('.aside'));

    const outcome = await journal.apply(id, allowingAll());
    expect(swaps()).toBeGreaterThan(0);
    const after = fs.lstatSync(secret);
    expect([after.mode, after.mtimeMs, fs.readFileSync(secret, 'utf8')]).toEqual([before.mode, before.mtimeMs, 'the owner’s secret\n']);
    const links = fs.readdirSync(at('d')).filter((name) => /^f\d+$/.test(name) && fs.lstatSync(at('d', name)).isSymbolicLink());
    expect(links).toEqual([]);
    // Each file is the owner's again, or said to be left.
    const conflicts = new Set(outcome.conflicts.map((c) => c.path));
    for (let i = 0; i < 40; i++) if (!conflicts.has(at('d', `f${i}`))) expect(fs.readFileSync(at('d', `f${i}`), 'utf8')).toBe(`owner ${i}\n`);
  });

  it('writes nothing outside through a folder swapped while it is filled', async () => {
    const { folder } = outsideFolder();
    const evil = path.join(folder, 'evil');
    fs.mkdirSync(evil, { mode: 0o700 });
    fs.mkdirSync(at('big'));
    for (let i = 0; i < 300; i++) fs.writeFileSync(at('big', `f${i}`), `owner ${i}\n`);
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 24 });
    const id = await journal.open('c');
    await journal.before(id, 'fs.delete', { paths: [at('big')], depth: 'tree' });
    fs.rmSync(at('big'), { recursive: true });
    await journal.after(id, 'fs.delete', [at('big')]);
    // Whatever folder appears (the folder itself, or the temporary it is made as) is swapped for a link to `evil`.
    const swaps = swapForLinks(at(), evil, (name) => !name.endsWith('.aside'));

    await journal.apply(id, allowingAll()).catch(() => undefined);
    expect(swaps()).toBeGreaterThan(0);
    expect(fs.readdirSync(evil)).toEqual([]);
    expect(fs.statSync(evil).mode & 0o777).toBe(0o700);
  });
});
