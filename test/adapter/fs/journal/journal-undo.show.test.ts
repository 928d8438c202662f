/**
 * What "undo show" reads to make its diffs: only the file the model left, through a descriptor
 * that follows no link and never waits on a FIFO (red team: a file swapped for a FIFO hung it for
 * good; a folder swapped for a link showed a file from outside the roots). A path changed since
 * the model changed it gets no diff: undo leaves it as it is.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';

const { at, journalDir } = useJournalFolders();

async function rewritten(file: string, before: string, after: string): Promise<{ journal: LocalJournal; id: string }> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, before);
  const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
  const id = await journal.open('test client');
  await journal.before(id, 'fs.write', { paths: [file], depth: 'shallow' });
  fs.writeFileSync(file, after);
  await journal.after(id, 'fs.write', [file]);
  return { journal, id };
}

describe('undo show', () => {
  it('diffs a path undo would put back, and not one changed since (the owner edited it)', async () => {
    const { journal, id } = await rewritten(at('notes.txt'), 'original\n', 'by the model\n');
    expect((await journal.show(id)).changes[0]).toMatchObject({ diff: expect.stringMatching(/-by the model\n\+original/) });
    fs.writeFileSync(at('notes.txt'), 'OWNER WORK AFTER THE MODEL\n');
    const change = (await journal.show(id)).changes[0]!;
    expect(change.changedSince).toBe(true);
    expect(change.diff).toBeUndefined();
  });

  it("shows a CRLF file's last line with its \\r, so a change of only its line ending shows what differs", async () => {
    // The model turned the last line's CRLF into LF: undo puts the \r back, and the diff says so (it read "-last", "+last").
    const { journal, id } = await rewritten(at('crlf.txt'), 'first\r\nlast\r\n', 'first\r\nlast\n');
    expect((await journal.show(id)).changes[0]!.diff!.split('\n').slice(-2)).toEqual(['-last', '+last\r']);
    const changed = await rewritten(at('edited.txt'), 'first\r\nlast\r\n', 'first\r\nLAST\r\n');
    expect((await changed.journal.show(changed.id)).changes[0]!.diff!.split('\n').slice(-3)).toEqual([' first\r', '-LAST\r', '+last\r']);
  });

  it('never shows a file that a folder swapped for a link leads to', async () => {
    const { journal, id } = await rewritten(at('d/a.txt'), 'original\n', 'by the model\n');
    fs.mkdirSync(at('outside'));
    fs.writeFileSync(at('outside/a.txt'), 'OUTSIDE-ONLY-CONTENT\n');
    fs.renameSync(at('d'), at('d-away'));
    fs.symlinkSync(at('outside'), at('d'));
    const detail = await journal.show(id);
    expect(JSON.stringify(detail)).not.toContain('OUTSIDE-ONLY-CONTENT');
    expect(detail.changes[0]!.changedSince).toBe(true);
  });

  it('answers at once where a kept copy is a FIFO (nothing ever writes it)', { timeout: 10_000 }, async () => {
    const { journal, id } = await rewritten(at('notes.txt'), 'original\n', 'by the model\n');
    const blobs = path.join(journalDir(), 'groups', id, 'blobs');
    for (const name of fs.readdirSync(blobs)) {
      fs.rmSync(path.join(blobs, name));
      execFileSync('mkfifo', [path.join(blobs, name)]);
    }
    const change = (await journal.show(id)).changes[0]!;
    expect(change.diff).toBeUndefined();
  });
});

describe('undo show of a change of mode', () => {
  /** A group in which `change` changed `paths` (recorded as fs.write records them). */
  async function changed(paths: string[], change: () => void): Promise<{ journal: LocalJournal; id: string }> {
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });
    const id = await journal.open('test client');
    await journal.before(id, 'fs.write', { paths, depth: 'shallow' });
    change();
    await journal.after(id, 'fs.write', paths);
    return { journal, id };
  }
  const modeOf = (p: string) => fs.lstatSync(p).mode & 0o7777;

  it('says a file whose mode alone changed (chmod 755 -> 644), which has no diff, and undo puts the mode back', async () => {
    fs.writeFileSync(at('run.sh'), '#!/bin/sh\n');
    fs.chmodSync(at('run.sh'), 0o755);
    const { journal, id } = await changed([at('run.sh')], () => fs.chmodSync(at('run.sh'), 0o644));
    const change = (await journal.show(id)).changes[0]!;
    expect(change).toMatchObject({ change: 'modified', was: 'file', mode: { before: '755', after: '644' } });
    expect(change.diff).toBeUndefined();
    await journal.apply(id, allowingAll());
    expect(modeOf(at('run.sh'))).toBe(0o755);
  });

  it('says it for a file replaced by one of another mode, with its setuid bit, beside the diff', async () => {
    fs.writeFileSync(at('tool'), 'old\n');
    fs.chmodSync(at('tool'), 0o4755);
    fs.writeFileSync(at('new-tool'), 'new\n');
    fs.chmodSync(at('new-tool'), 0o600);
    const { journal, id } = await changed([at('tool')], () => fs.renameSync(at('new-tool'), at('tool')));
    const change = (await journal.show(id)).changes[0]!;
    expect(change).toMatchObject({ change: 'modified', mode: { before: '4755', after: '600' }, diff: expect.stringMatching(/-new\n\+old/) });
  });

  it("says a folder's mode change, and nothing of a mode where only the content changed or a file became a folder", async () => {
    fs.mkdirSync(at('shared'));
    fs.chmodSync(at('shared'), 0o755);
    fs.writeFileSync(at('notes.txt'), 'original\n');
    fs.chmodSync(at('notes.txt'), 0o644);
    fs.writeFileSync(at('was-file'), 'x\n');
    const { journal, id } = await changed([at('shared'), at('notes.txt'), at('was-file')], () => {
      fs.chmodSync(at('shared'), 0o700);
      fs.writeFileSync(at('notes.txt'), 'by the model\n');
      fs.rmSync(at('was-file'));
      fs.mkdirSync(at('was-file'), 0o700);
    });
    const byPath = new Map((await journal.show(id)).changes.map((c) => [c.path, c]));
    expect(byPath.get(at('shared'))).toMatchObject({ change: 'modified', was: 'directory', mode: { before: '755', after: '700' } });
    expect(byPath.get(at('notes.txt'))).toMatchObject({ change: 'modified', diff: expect.any(String) });
    expect(byPath.get(at('notes.txt'))!.mode).toBeUndefined();
    expect(byPath.get(at('was-file'))!.change).toBe('replaced');
    expect(byPath.get(at('was-file'))!.mode).toBeUndefined();
  });
});
