/**
 * dropped.jsonl: the groups dropped for room, which `undo list` and the tray show. Servers
 * sharing the journal drop groups at once, so each says so by appending a line (a file read and
 * written back whole would lose one's line); once it holds twice as many as are listed, it is
 * cut to its newest lines through a rename.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DroppedGroup } from '../../contract/journal.js';

/** How many dropped groups are listed. */
const MAX_LISTED = 200;

export async function noteDropped(journal: string, entry: DroppedGroup): Promise<void> {
  const file = path.join(journal, 'dropped.jsonl');
  await fs.promises.appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  const all = await readDropped(journal, Infinity);
  if (all.length <= 2 * MAX_LISTED) return;
  const temporary = `${file}.${process.pid}.new`;
  await fs.promises.writeFile(
    temporary,
    all
      .slice(-MAX_LISTED)
      .map((d) => `${JSON.stringify(d)}\n`)
      .join(''),
    { mode: 0o600 },
  );
  await fs.promises.rename(temporary, file);
}

/** The groups dropped for room, oldest first (the newest `most`); a line cut short by a crash is left out. */
export async function readDropped(journal: string, most = MAX_LISTED): Promise<DroppedGroup[]> {
  const text = await fs.promises.readFile(path.join(journal, 'dropped.jsonl'), 'utf8').catch(() => '');
  const entries = text
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as DroppedGroup];
      } catch {
        return [];
      }
    });
  return entries.slice(-most);
}
