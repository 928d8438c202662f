/** dropped.jsonl: lines appended by drops at once are all kept, and the file is cut to its newest lines. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteDropped, readDropped } from '../../../../adapter/fs/journal/dropped-list.js';
import { useJournalFolders } from '../../../helpers/journal-folders.js';

const { journalDir } = useJournalFolders();
const entry = (i: number) => ({ id: `20261206-100000000-${String(i).padStart(4, '0')}`, client: 'c', startedAt: 'then', files: i, droppedAt: 'now' });

describe('dropped-list', () => {
  it('keeps every line of drops made at once (servers sharing the journal)', async () => {
    fs.mkdirSync(journalDir(), { recursive: true });
    await Promise.all(Array.from({ length: 60 }, (_, i) => noteDropped(journalDir(), entry(i))));
    expect((await readDropped(journalDir())).map((d) => d.files).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('lists the newest 200, cuts the file once it holds twice as many, and skips a line cut short by a crash', async () => {
    fs.mkdirSync(journalDir(), { recursive: true });
    for (let i = 0; i < 400; i++) await noteDropped(journalDir(), entry(i));
    expect((await readDropped(journalDir())).map((d) => d.files)).toEqual(Array.from({ length: 200 }, (_, i) => 200 + i));
    const file = path.join(journalDir(), 'dropped.jsonl');
    expect(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(400);
    await noteDropped(journalDir(), entry(400));
    expect(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(200);
    fs.appendFileSync(file, '{"id":"2026');
    expect((await readDropped(journalDir())).at(-1)!.files).toBe(400);
  });
});
