import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDiff, splitPatches } from '../../../../adapter/git/parse/diff.js';

const captured = fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'diff-staged.bin'));
const all = () => true;

describe('parseDiff (git diff --raw --numstat --patch -z, captured)', () => {
  it('lists every file with its change and counts, and its patch', () => {
    const diff = parseDiff(captured, all, 1 << 20, false);
    expect(diff.files.map(({ patch: _patch, ...file }) => file)).toEqual([
      { path: 'a.txt', change: 'modified', added: 2, removed: 1 },
      { path: 'bin.dat', change: 'added', added: null, removed: null },
      { path: 'conflict.txt', change: 'modified', added: 0, removed: 0, conflicted: true },
      { path: 'dir/renamed.txt', from: 'dir/with space.txt', change: 'renamed', added: 0, removed: 0 },
      { path: 'gone.txt', change: 'deleted', added: 0, removed: 1 },
    ]);
    expect(diff.files[0]!.patch).toMatch(/^diff --git a\/a\.txt b\/a\.txt\n[\s\S]*-two\n\+2\n\+three\n$/);
    expect(diff.files[1]!.patch).toContain('Binary files /dev/null and b/bin.dat differ');
    expect(diff.files[2]!.patch).toBe('* Unmerged path conflict.txt\n');
    expect(diff.files[3]!.patch).toContain('rename from dir/with space.txt');
    expect(diff.files[4]!.patch).toContain('-gone');
    expect(diff).toMatchObject({ truncated: false, withheld: 0 });
  });

  it('fills the byte budget in order, then lists the rest without a patch', () => {
    const first = Buffer.byteLength(parseDiff(captured, all, 1 << 20, false).files[0]!.patch!);
    const diff = parseDiff(captured, all, first, false);
    expect(diff.files.map((f) => f.patch !== undefined)).toEqual([true, false, false, false, false]);
    expect(diff.truncated).toBe(true);
  });

  it('withholds files the caller may not see, with their patches', () => {
    const diff = parseDiff(captured, (p) => p !== 'gone.txt' && p !== 'dir/with space.txt', 1 << 20, false);
    expect(diff.withheld).toBe(2);
    expect(diff.files.map((f) => f.path)).toEqual(['a.txt', 'bin.dat', 'conflict.txt']);
    expect(JSON.stringify(diff)).not.toContain('gone');
  });

  it('never shows the half patch of output cut at its bound', () => {
    const cut = captured.subarray(0, captured.length - 20);
    const diff = parseDiff(cut, all, 1 << 20, true);
    expect(diff.truncated).toBe(true);
    expect(diff.files.at(-1)!.patch).toBeUndefined();
    expect(diff.files).toHaveLength(5);
  });

  it('is empty for no changes, and splits combined (unmerged) headers too', () => {
    expect(parseDiff(Buffer.alloc(0), all, 100, false)).toEqual({ files: [], truncated: false, withheld: 0 });
    expect(splitPatches('diff --cc a\n+x\ndiff --git a/b b/b\n-y\n')).toEqual(['diff --cc a\n+x\n', 'diff --git a/b b/b\n-y\n']);
    expect(splitPatches(' diff --git not a header\n')).toEqual([]);
  });
});

describe('a conflicted file in the working tree (a combined record: no counts, no patch from git here)', () => {
  // As git 2.39 prints `git diff --raw --numstat --patch -z` mid-merge: f.txt unmerged, g.txt changed.
  const output = Buffer.from(
    '::100644 100644 100644 097825b da0ce5a 0000000 MM\x00f.txt\x00:100644 100644 975fbec 0000000 M\x00g.txt\x001\t0\tg.txt\x00\x00' +
      'diff --git a/g.txt b/g.txt\nindex 975fbec..2795c87 100644\n--- a/g.txt\n+++ b/g.txt\n@@ -1 +1,2 @@\n y\n+z\n',
  );

  it('is listed as conflicted, and the counts and patch that follow go to the next file', () => {
    const diff = parseDiff(output, all, 1 << 20, false);
    expect(diff.files).toEqual([
      { path: 'f.txt', change: 'modified', added: null, removed: null, conflicted: true },
      { path: 'g.txt', change: 'modified', added: 1, removed: 0, patch: expect.stringMatching(/^diff --git a\/g\.txt b\/g\.txt\n[\s\S]*\+z\n$/) },
    ]);
    expect(diff.truncated).toBe(false);
  });
});
