import { describe, expect, it } from 'vitest';
import { isUnifiedDiff, parseUnifiedDiff } from '../../../../adapter/fs/patch/parse-unified.js';
import { PatchSyntaxError } from '../../../../adapter/fs/patch/patch-syntax.js';

/** What `git diff` prints for a change, a new file and a deleted file (git 2.x, default options). */
const GIT_DIFF = [
  'diff --git a/src/app.js b/src/app.js',
  'index 3b18e51..a1b2c3d 100644',
  '--- a/src/app.js',
  '+++ b/src/app.js',
  '@@ -1,4 +1,4 @@ function main() {',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  ' const c = 4;',
  ' const d = 5;',
  '@@ -10,3 +10,4 @@ function tail() {',
  ' x();',
  ' y();',
  '+z();',
  ' return;',
  'diff --git a/docs/new.md b/docs/new.md',
  'new file mode 100644',
  'index 0000000..e69de29',
  '--- /dev/null',
  '+++ b/docs/new.md',
  '@@ -0,0 +1,2 @@',
  '+# New',
  '+text',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  'index 5716ca5..0000000',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-bye',
  '',
].join('\n');

describe('parseUnifiedDiff', () => {
  it('reads git diff output: a/ b/ prefixes dropped, /dev/null sides as add and delete', () => {
    expect(isUnifiedDiff(GIT_DIFF)).toBe(true);
    const ops = parseUnifiedDiff(GIT_DIFF);
    expect(ops).toEqual([
      {
        kind: 'update',
        path: 'src/app.js',
        finalNewline: 'keep',
        chunks: [
          {
            anchors: [],
            oldLines: ['const a = 1;', 'const b = 2;', 'const c = 4;', 'const d = 5;'],
            newLines: ['const a = 1;', 'const b = 3;', 'const c = 4;', 'const d = 5;'],
            context: [
              [0, 0],
              [2, 2],
              [3, 3],
            ],
            endOfFile: false,
            patchLine: 5,
          },
          {
            anchors: [],
            oldLines: ['x();', 'y();', 'return;'],
            newLines: ['x();', 'y();', 'z();', 'return;'],
            context: [
              [0, 0],
              [1, 1],
              [2, 3],
            ],
            endOfFile: false,
            patchLine: 11,
          },
        ],
      },
      { kind: 'add', path: 'docs/new.md', content: '# New\ntext\n' },
      { kind: 'delete', path: 'old.txt' },
    ]);
  });

  it('reads diff -u output with timestamps, and a rename as a move', () => {
    const ops = parseUnifiedDiff(
      ['--- lib/old.c\t2026-01-01 10:00:00.000000000 +0000', '+++ lib/new.c\t2026-01-02 10:00:00.000000000 +0000', '@@ -1 +1 @@', '-a', '+b', ''].join('\n'),
    );
    expect(ops).toMatchObject([{ kind: 'update', path: 'lib/old.c', moveTo: 'lib/new.c', chunks: [{ oldLines: ['a'], newLines: ['b'] }] }]);
  });

  it('honours "\\ No newline at end of file" on either side', () => {
    const removeNewline = parseUnifiedDiff(['--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', ' a', '-b', '+c', '\\ No newline at end of file', ''].join('\n'));
    expect(removeNewline[0]).toMatchObject({ kind: 'update', finalNewline: 'remove', chunks: [{ oldLines: ['a', 'b'], newLines: ['a', 'c'] }] });
    const addNewline = parseUnifiedDiff(['--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', ' a', '-b', '\\ No newline at end of file', '+b', ''].join('\n'));
    expect(addNewline[0]).toMatchObject({ finalNewline: 'add', chunks: [{ oldLines: ['a', 'b'], newLines: ['a', 'b'] }] });
    const neither = parseUnifiedDiff(['--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', '-a', '+A', ' b', '\\ No newline at end of file', ''].join('\n'));
    expect(neither[0]).toMatchObject({ finalNewline: 'remove' });
    const added = parseUnifiedDiff(['--- /dev/null', '+++ b/n', '@@ -0,0 +1 @@', '+only', '\\ No newline at end of file', ''].join('\n'));
    expect(added).toEqual([{ kind: 'add', path: 'n', content: 'only' }]);
  });

  it('accepts CRLF diff text', () => {
    const ops = parseUnifiedDiff(['--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '+b', ''].join('\r\n'));
    expect(ops).toMatchObject([{ kind: 'update', path: 'f', chunks: [{ oldLines: ['a'], newLines: ['b'] }] }]);
  });

  it('a malformed diff is a syntax error', () => {
    expect(() => parseUnifiedDiff(['--- a/f', '+++ b/f', '@@ -1,3 +1,3 @@', '-a', '+b', ''].join('\n'))).toThrow(PatchSyntaxError);
  });

  it('is not taken for something else', () => {
    expect(isUnifiedDiff('just text\n--- not a header\n')).toBe(false);
    expect(isUnifiedDiff('*** Begin Patch\n*** End Patch\n')).toBe(false);
  });
});
