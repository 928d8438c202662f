import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatus } from '../../../../adapter/git/parse/status.js';

const captured = fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'status.bin'));
const all = () => true;

describe('parseStatus (git status --porcelain=v2 --branch -z, captured)', () => {
  it('reads the branch and every kind of record', () => {
    expect(parseStatus(captured, all, 100)).toEqual({
      branch: 'main',
      head: 'b6908cb99239d7b51cbb3429631af8a665a67b6b',
      entries: [
        { path: 'a.txt', staged: 'modified', unstaged: 'modified' },
        { path: 'bin.dat', staged: 'added' },
        { path: 'dir/renamed.txt', staged: 'renamed', from: 'dir/with space.txt' },
        { path: 'gone.txt', staged: 'deleted' },
        { path: 'conflict.txt', conflicted: true },
        { path: 'café.txt', untracked: true },
      ],
      total: 6,
      truncated: false,
      withheld: 0,
    });
  });

  it('withholds what the caller may not see (either side of a rename), and bounds the entries', () => {
    const status = parseStatus(captured, (p) => !p.startsWith('dir/with'), 3);
    expect(status.withheld).toBe(1);
    expect(status.entries.map((e) => e.path)).toEqual(['a.txt', 'bin.dat', 'gone.txt']);
    expect(status.truncated).toBe(true);
    // All those it may see, shown or not: the answer says how many more there are.
    expect(status.total).toBe(5);
  });

  it('reads an unborn branch, a detached HEAD and an upstream', () => {
    const unborn = Buffer.from('# branch.oid (initial)\0# branch.head main\0');
    expect(parseStatus(unborn, all, 10)).toMatchObject({ branch: 'main', head: null, entries: [] });
    const detached = Buffer.from('# branch.oid abc\0# branch.head (detached)\0');
    expect(parseStatus(detached, all, 10)).toMatchObject({ branch: null, head: 'abc' });
    const tracking = Buffer.from('# branch.oid abc\0# branch.head main\0# branch.upstream origin/main\0# branch.ab +2 -1\0');
    expect(parseStatus(tracking, all, 10)).toMatchObject({ upstream: 'origin/main', ahead: 2, behind: 1 });
  });
});
