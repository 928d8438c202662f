import { describe, expect, it } from 'vitest';
import { isApplyPatchFormat, parseApplyPatch } from '../../../../adapter/fs/patch/parse-apply-patch.js';
import { PatchSyntaxError } from '../../../../adapter/fs/patch/patch-syntax.js';

const lines = (...text: string[]) => text.join('\n');

function syntaxError(patch: string): PatchSyntaxError {
  try {
    parseApplyPatch(patch);
  } catch (error) {
    if (error instanceof PatchSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a PatchSyntaxError');
}

describe('parseApplyPatch', () => {
  it('parses the combined example of the public apply_patch instructions', () => {
    const patch = lines(
      '*** Begin Patch',
      '*** Add File: hello.txt',
      '+Hello world',
      '*** Update File: src/app.py',
      '*** Move to: src/main.py',
      '@@ def greet():',
      '-print("Hi")',
      '+print("Hello, world!")',
      '*** Delete File: obsolete.txt',
      '*** End Patch',
      '',
    );
    expect(isApplyPatchFormat(patch)).toBe(true);
    expect(parseApplyPatch(patch)).toEqual([
      { kind: 'add', path: 'hello.txt', content: 'Hello world\n' },
      {
        kind: 'update',
        path: 'src/app.py',
        moveTo: 'src/main.py',
        chunks: [{ anchors: ['def greet():'], oldLines: ['print("Hi")'], newLines: ['print("Hello, world!")'], context: [], endOfFile: false, patchLine: 6 }],
      },
      { kind: 'delete', path: 'obsolete.txt' },
    ]);
  });

  it('keeps several @@ anchors of one chunk in order (class, then method), and context on both sides', () => {
    const [op] = parseApplyPatch(
      lines('*** Begin Patch', '*** Update File: a.py', '@@ class BaseClass', '@@ \t def method():', ' a', ' b', '-old', '+new', ' c', '*** End Patch'),
    );
    expect(op).toMatchObject({
      kind: 'update',
      chunks: [
        {
          anchors: ['class BaseClass', 'def method():'],
          oldLines: ['a', 'b', 'old', 'c'],
          newLines: ['a', 'b', 'new', 'c'],
          context: [
            [0, 0],
            [1, 1],
            [3, 3],
          ],
        },
      ],
    });
  });

  it('splits chunks at each @@ and marks the one ending with *** End of File', () => {
    const [op] = parseApplyPatch(
      lines('*** Begin Patch', '*** Update File: f', '@@', ' one', '-two', '+2', '@@ tail', ' x', '+y', '*** End of File', '*** End Patch'),
    );
    expect(op).toMatchObject({
      chunks: [
        { anchors: [], oldLines: ['one', 'two'], newLines: ['one', '2'], endOfFile: false, patchLine: 3 },
        { anchors: ['tail'], oldLines: ['x'], newLines: ['x', 'y'], endOfFile: true, patchLine: 7 },
      ],
    });
  });

  it('accepts a first chunk without @@, an empty line as empty context, and pure additions', () => {
    const [op] = parseApplyPatch(lines('*** Begin Patch', '*** Update File: f', ' import foo', '', '+bar', '*** End Patch'));
    expect(op).toMatchObject({ chunks: [{ anchors: [], oldLines: ['import foo', ''], newLines: ['import foo', '', 'bar'] }] });
  });

  it('a context line whose text starts with @@ is context, not a new chunk', () => {
    const [op] = parseApplyPatch(lines('*** Begin Patch', '*** Update File: notes.diff', '@@', ' @@ -1 +1 @@', '-old', '+new', '*** End Patch'));
    expect(op).toMatchObject({ chunks: [{ anchors: [], oldLines: ['@@ -1 +1 @@', 'old'], newLines: ['@@ -1 +1 @@', 'new'] }] });
  });

  it('is lenient where models drift: padded markers, CRLF, a heredoc wrapper', () => {
    const padded = lines(' *** Begin Patch ', '  *** Update File: foo.txt', '@@', '-old', '+new', '*** End Patch  ');
    expect(parseApplyPatch(padded)).toMatchObject([{ kind: 'update', path: 'foo.txt' }]);
    expect(parseApplyPatch(padded.replace(/\n/g, '\r\n'))).toMatchObject([{ kind: 'update', path: 'foo.txt', chunks: [{ oldLines: ['old'] }] }]);
    const heredoc = lines("apply_patch <<'EOF'", '*** Begin Patch', '*** Delete File: x', '*** End Patch', 'EOF', '');
    expect(isApplyPatchFormat(heredoc)).toBe(true);
    expect(parseApplyPatch(heredoc)).toEqual([{ kind: 'delete', path: 'x' }]);
  });

  it('an added file with no lines is empty; a move without chunks is a rename', () => {
    expect(parseApplyPatch(lines('*** Begin Patch', '*** Add File: empty.txt', '*** End Patch'))).toEqual([{ kind: 'add', path: 'empty.txt', content: '' }]);
    expect(parseApplyPatch(lines('*** Begin Patch', '*** Update File: a', '*** Move to: b', '*** End Patch'))).toEqual([
      { kind: 'update', path: 'a', moveTo: 'b', chunks: [] },
    ]);
  });

  it.each([
    ['no begin marker', lines('*** Update File: f', '@@', '-a', '*** End Patch'), 1, '*** Begin Patch'],
    ['no end marker', lines('*** Begin Patch', '*** Update File: f', '@@', '-a'), 4, '*** End Patch'],
    ['an unknown header', lines('*** Begin Patch', '*** Modify File: f', '*** End Patch'), 2, 'Modify File'],
    ['an added line without +', lines('*** Begin Patch', '*** Add File: f', '+ok', 'oops', '*** End Patch'), 4, 'starts with "+"'],
    ['a chunk line with another prefix', lines('*** Begin Patch', '*** Update File: f', '@@', ' a', '?b', '*** End Patch'), 5, '"?b"'],
    ['an update with no chunk', lines('*** Begin Patch', '*** Update File: f', '*** End Patch'), 2, 'has no changes'],
    ['a chunk of context only', lines('*** Begin Patch', '*** Update File: f', '@@', ' a', '*** End Patch'), 3, 'changes nothing'],
    ['a header without a path', lines('*** Begin Patch', '*** Delete File: ', '*** End Patch'), 2, 'needs a path'],
    ['no file at all', lines('*** Begin Patch', '*** End Patch'), 1, 'changes no file'],
  ])('names the line of %s', (_what, patch, line, text) => {
    const error = syntaxError(patch);
    expect(error.line).toBe(line);
    expect(error.message).toContain(`line ${line}: `);
    expect(error.message).toContain(text);
  });

  it('counts patch lines from the top of the text, wrapper and blank lines included', () => {
    const error = syntaxError(lines('', "apply_patch <<'EOF'", '*** Begin Patch', '*** Update File: f', '@@', '-a', '!b', '*** End Patch', 'EOF'));
    // Line 7 of the text as sent (the heredoc line is line 2).
    expect(error.line).toBe(7);
  });

  it('is not taken for a unified diff', () => {
    expect(isApplyPatchFormat('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n')).toBe(false);
  });
});
