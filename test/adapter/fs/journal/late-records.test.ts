/**
 * A call under way when the owner's undo of its group began (in another process, or another
 * journal in this one): what it changed is recorded on in a new group, undoable there, and
 * neither lost in the undone group nor recorded twice; the undo leaves what the model changed
 * while it ran.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { GuardedPath, WriteMode } from '../../../../adapter/contract/files.js';
import type { UndoOutcome } from '../../../../adapter/contract/journal.js';
import { LocalJournal } from '../../../../adapter/fs/journal/local-journal.js';
import { writeTextFile } from '../../../../adapter/fs/write-text.js';
import { allowingAll, useJournalFolders } from '../../../helpers/journal-folders.js';
import { REPO_ROOT } from '../../../helpers/servers.js';

const { at, journalDir } = useJournalFolders();
const journalAt = () => new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20 });

/** A group in which the model rewrote f0, f1 and f2 ("original i" before). */
async function rewrote(journal: LocalJournal): Promise<string> {
  const id = await journal.open('c');
  for (let i = 0; i < 3; i++) {
    fs.writeFileSync(at(`f${i}`), `original ${i}\n`);
    await journal.before(id, 'fs.write', { paths: [at(`f${i}`)], depth: 'shallow' });
    fs.writeFileSync(at(`f${i}`), `model ${i}\n`);
    await journal.after(id, 'fs.write', [at(`f${i}`)]);
  }
  return id;
}

/** `undo apply` of a group in a process of its own (the CLI's journal, as built), allowing every path. */
function undoElsewhere(id: string): Promise<UndoOutcome> {
  const module = path.join(REPO_ROOT, 'out/adapter/fs/journal/local-journal.js');
  const script = `
    const { LocalJournal } = await import(${JSON.stringify(module)});
    const journal = new LocalJournal({ dir: ${JSON.stringify(journalDir())}, maxBytes: 1 << 20 });
    const outcome = await journal.apply(${JSON.stringify(id)}, { resolve: async (p) => ({ path: p, confirm: () => {} }), repository: async () => [] });
    process.stdout.write(JSON.stringify(outcome));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as UndoOutcome) : reject(new Error(`undo exited ${code}`))));
  });
}

/** fs.write's change as the writer makes it: the file handed over just before it is replaced. */
function handedOver(journal: LocalJournal, id: string, file: string, content: string, mode: WriteMode = 'overwrite') {
  const guard: GuardedPath = { path: file, confirm: () => {} };
  return writeTextFile(guard, content, mode, { beforeChange: (entry, f, replacing) => journal.handOver(id, 'fs.write', file, entry, f, replacing) });
}

/** The other groups than `id`, newest first. */
async function othersThan(journal: LocalJournal, id: string) {
  return (await journal.list()).groups.filter((g) => g.id !== id);
}

describe('a call under way when its group is undone', () => {
  it('has its change recorded on in a new group when another process undid the group before it was done', async () => {
    let clock = Date.parse('2026-01-31T14:25:00Z');
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20, now: () => new Date(clock) });
    const id = await rewrote(journal);
    fs.writeFileSync(at('h'), 'before the late call\n');
    // The call began: pre-images taken (f0 the group holds, "new" not there yet, h to be handed over).
    await journal.before(id, 'fs.write', { paths: [at('f0'), at('new'), at('h')], depth: 'shallow', handover: true });

    const outcome = await undoElsewhere(id);
    expect(outcome.restored).toEqual([at('f0'), at('f1'), at('f2')]);
    expect(journal.isOpen(id)).toBe(false);

    clock += 1000;
    fs.writeFileSync(at('f0'), 'model, late\n');
    fs.writeFileSync(at('new'), 'made late\n');
    await handedOver(journal, id, at('h'), 'model, late\n');
    await journal.after(id, 'fs.write', [at('f0'), at('new'), at('h')]);
    // The client's next call, in a group of its own.
    clock += 1000;
    const after = await journal.open('c');
    await journal.settled();

    // The undone group is what its undo read; the late change is in a group of its own, open, dated by it.
    expect((await journal.show(id)).changes.map((c) => c.path)).toEqual([at('f0'), at('f1'), at('f2')]);
    const [newest, next, ...more] = await othersThan(journal, id);
    expect(more).toEqual([]);
    expect(newest!.id).toBe(after);
    expect(next).toMatchObject({ client: 'c', state: 'open', files: 3, notKept: 0, startedAt: '2026-01-31T14:25:01.000Z' });
    const undone = await journalAt().apply(next!.id, allowingAll());
    expect(undone).toMatchObject({ conflicts: [], skipped: [] });
    expect(fs.readdirSync(at()).sort()).toEqual(['f0', 'f1', 'f2', 'h']);
    for (let i = 0; i < 3; i++) expect(fs.readFileSync(at(`f${i}`), 'utf8')).toBe(`original ${i}\n`);
    expect(fs.readFileSync(at('h'), 'utf8')).toBe('before the late call\n');
  });

  it('is left by the undo as a conflict, and recorded on, when it lands while the undo runs', async () => {
    const journal = journalAt();
    const id = await rewrote(journal);
    await journal.before(id, 'fs.write', { paths: [at('f1'), at('new')], depth: 'shallow' });
    let late: Promise<void> | undefined;
    // The undo (another journal: the tray's) has judged every path and is about to put f0 back when the call makes its change.
    const outcome = await journalAt().apply(
      id,
      allowingAll((p) => {
        if (p !== at('f0') || late) return;
        fs.writeFileSync(at('f1'), 'model, during the undo\n');
        fs.writeFileSync(at('new'), 'made during the undo\n');
        late = journal.after(id, 'fs.write', [at('f1'), at('new')]);
      }),
    );
    expect(outcome.restored).toEqual([at('f0'), at('f2')]);
    expect(outcome.conflicts).toEqual([{ path: at('f1'), why: 'it was changed while undo ran, so it is left as it is' }]);
    expect(fs.readFileSync(at('f1'), 'utf8')).toBe('model, during the undo\n');
    await late;
    await journal.settled();

    const [next, ...more] = await othersThan(journal, id);
    expect(more).toEqual([]);
    expect(next).toMatchObject({ state: 'open', files: 2 });
    expect((await journal.apply(next!.id, allowingAll())).restored.sort()).toEqual([at('f1'), at('new')]);
    expect(fs.readdirSync(at()).sort()).toEqual(['f0', 'f1', 'f2']);
    for (let i = 0; i < 3; i++) expect(fs.readFileSync(at(`f${i}`), 'utf8')).toBe(`original ${i}\n`);
  });

  /** A call makes `new` while an undo holds the group's lock (taken just as the call's stamps are appended: the call sees it, and waits for the undo to end). */
  async function madeWhileLocked(journal: LocalJournal): Promise<string> {
    const id = await rewrote(journal);
    const lock = path.join(journalDir(), 'groups', id, 'undoing');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname() }));
    await journal.before(id, 'fs.write', { paths: [at('new')], depth: 'shallow' });
    fs.writeFileSync(at('new'), 'made\n');
    await journal.after(id, 'fs.write', [at('new')]);
    fs.rmSync(lock);
    return id;
  }

  it('is not recorded twice when the undo read it after all', async () => {
    const journal = journalAt();
    const id = await madeWhileLocked(journal);
    // The undo that read it.
    expect((await journalAt().apply(id, allowingAll())).restored).toEqual([at('new'), at('f0'), at('f1'), at('f2')]);
    await journal.settled();
    expect(await othersThan(journal, id)).toEqual([]);
    expect(fs.readdirSync(at()).sort()).toEqual(['f0', 'f1', 'f2']);
  });

  it('is reported, not dropped in silence, when it cannot be carried on', async () => {
    const failures: string[] = [];
    const journal = new LocalJournal({ dir: journalDir(), maxBytes: 1 << 20, onError: (error) => failures.push(error.message) });
    const id = await rewrote(journal);
    await journal.before(id, 'fs.write', { paths: [at('f0'), at('new')], depth: 'shallow' });
    await undoElsewhere(id);
    // The disk is full when the continuation would be made.
    vi.spyOn(journal, 'open').mockRejectedValue(new Error('ENOSPC: no space left on device'));
    fs.writeFileSync(at('new'), 'made late\n');
    await journal.after(id, 'fs.write', [at('f0'), at('new')]);
    await journal.settled();
    expect(failures).toEqual([
      `changes made while group ${id} was being undone (2 path(s)) could not be carried on to a new group, so undo cannot put them back: ENOSPC: no space left on device`,
    ]);
  });

  it('stays in its group when the undo failed', async () => {
    const journal = journalAt();
    const id = await madeWhileLocked(journal);
    await journal.settled();
    expect(await othersThan(journal, id)).toEqual([]);
    expect((await journal.show(id)).changes.map((c) => c.path)).toEqual([at('f0'), at('f1'), at('f2'), at('new')]);
  });
});
