import { describe, expect, it } from 'vitest';
import { applyChunks } from '../../../../adapter/fs/patch/apply-chunks.js';
import type { PatchChunk } from '../../../../adapter/contract/files.js';
import { parseApplyPatch } from '../../../../adapter/fs/patch/parse-apply-patch.js';

const chunk = (oldLines: string[], newLines: string[], extra: Partial<PatchChunk> = {}): PatchChunk => ({
  anchors: [],
  oldLines,
  newLines,
  context: [],
  endOfFile: false,
  patchLine: 3,
  ...extra,
});

/** Applies the chunks of an apply_patch text (one Update File section) to `text`. */
function patch(text: string, body: string[]): string {
  const [op] = parseApplyPatch(['*** Begin Patch', '*** Update File: f', ...body, '*** End Patch'].join('\n'));
  if (op?.kind !== 'update') throw new Error('expected an update');
  return applyChunks('f', text, op.chunks);
}

describe('applyChunks', () => {
  const file = 'def a():\n    return 1\n\ndef b():\n    return 1\n\ndef c():\n    return 1\n';

  it('finds each chunk by its context after the previous one, never by line numbers', () => {
    expect(patch(file, ['@@ def b():', '-    return 1', '+    return 2', '@@ def c():', '-    return 1', '+    return 3'])).toBe(
      'def a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n',
    );
  });

  it('several @@ anchors narrow down in turn', () => {
    const text = 'class A:\n  def m():\n    x = 1\nclass B:\n  def n():\n    x = 1\n  def m():\n    x = 1\n';
    expect(patch(text, ['@@ class B:', '@@   def m():', '-    x = 1', '+    x = 2'])).toBe(
      'class A:\n  def m():\n    x = 1\nclass B:\n  def n():\n    x = 1\n  def m():\n    x = 2\n',
    );
  });

  it('context with lost trailing whitespace or drifted indentation still applies; the new lines are written as given', () => {
    const text = 'if (x) {   \n\tcall();\n}\n';
    expect(patch(text, ['@@', ' if (x) {', '-  call();', '+  callAgain();', ' }'])).toBe('if (x) {   \n  callAgain();\n}\n');
  });

  it('context with ASCII quotes and dashes matches typographic ones in the file', () => {
    const text = 'title = \u201cHello\u201d \u2013 world\nnext\n';
    expect(patch(text, ['@@', '-title = "Hello" - world', '+title = "Hi"'])).toBe('title = "Hi"\nnext\n');
  });

  it('context lines keep the file’s own text where they matched loosely (tabs, quotes): only - and + lines change', () => {
    const text = '\tconst s = \u201cx\u201d;\n\told();\n\tdone();\n';
    expect(patch(text, ['@@', '   const s = "x";', '-  old();', '+  fresh();', '   done();'])).toBe('\tconst s = \u201cx\u201d;\n  fresh();\n\tdone();\n');
  });

  it('a pure addition goes after its anchor, or at the end of the file', () => {
    expect(patch('a\nb\nc\n', ['@@ a', '+a2'])).toBe('a\na2\nb\nc\n');
    expect(patch('a\nb\n', ['@@', '+z'])).toBe('a\nb\nz\n');
  });

  it('an addition after an anchor and a chunk replacing the very next line both apply, in order', () => {
    expect(patch('def stop():\n    pass\n', ['@@ def stop():', '+    # stopping', '@@', '-    pass', '+    return None'])).toBe(
      'def stop():\n    # stopping\n    return None\n',
    );
  });

  it('*** End of File puts the chunk at the end even when the same lines occur earlier', () => {
    expect(patch('end\nmiddle\nend\n', ['@@', '-end', '+END', '*** End of File'])).toBe('end\nmiddle\nEND\n');
  });

  it('removes lines, and a trailing empty context line stands for the final newline', () => {
    expect(patch('a\nb\nc\n', ['@@', ' a', '-b', ' c', ''])).toBe('a\nc\n');
    expect(patch('a\n', ['@@', '-a'])).toBe('');
  });

  it('ends the file with a newline (apply_patch), unless a unified diff said how it ends', () => {
    expect(patch('a\nb', ['@@', ' a', '-b', '+c'])).toBe('a\nc\n');
    const change = [chunk(['a', 'b'], ['a', 'c'])];
    expect(applyChunks('f', 'a\nb\n', change, 'remove')).toBe('a\nc');
    expect(applyChunks('f', 'a\nb', change, 'add')).toBe('a\nc\n');
    expect(applyChunks('f', 'a\nb', change, 'keep')).toBe('a\nc');
    expect(applyChunks('f', 'a\nb\n', change, 'keep')).toBe('a\nc\n');
  });

  it('patches a CRLF file with an LF patch and keeps every line CRLF; a mixed file is patched as it is', () => {
    expect(patch('a\r\nb\r\nc\r\n', ['@@', ' a', '-b', '+B', '+B2', ' c'])).toBe('a\r\nB\r\nB2\r\nc\r\n');
    expect(patch('a\r\nb\nc\n', ['@@', ' b', '-c', '+C'])).toBe('a\r\nb\nC\n');
  });

  it('NO_MATCH names the chunk by its patch line and its first old line', () => {
    expect(() => applyChunks('src/f.py', 'x\ny\n', [chunk(['nope'], ['yes'], { patchLine: 9 })])).toThrow(
      expect.objectContaining({
        code: 'NO_MATCH',
        details: { patchLine: 9 },
        message: expect.stringMatching(/^src\/f\.py: the chunk at patch line 9 .*"nope"/),
      }),
    );
    expect(() => applyChunks('f', 'x\n', [chunk(['x'], ['y'], { anchors: ['class Missing'] })])).toThrow(
      expect.objectContaining({ code: 'NO_MATCH', message: expect.stringContaining('"@@ class Missing"') }),
    );
  });

  it('a chunk must come after the previous one: chunks out of order do not apply', () => {
    expect(() => applyChunks('f', 'a\nb\n', [chunk(['b'], ['B']), chunk(['a'], ['A'])])).toThrow(expect.objectContaining({ code: 'NO_MATCH' }));
  });
});
