import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../adapter/fs/text-edits.js';

const fails = (text: string, edits: Parameters<typeof applyEdits>[1]) => {
  try {
    applyEdits(text, edits);
  } catch (error) {
    return error as Error & { code: string; details?: Record<string, unknown> };
  }
  throw new Error('expected applyEdits to fail');
};

describe('applyEdits', () => {
  it('applies edits in order, each to the text the previous one produced', () => {
    const result = applyEdits('alpha beta gamma\n', [
      { oldText: 'beta', newText: 'BETA' },
      { oldText: 'BETA gamma', newText: 'delta' },
    ]);
    expect(result).toEqual({ text: 'alpha delta\n', replacements: 2 });
  });

  it('replaces every occurrence with replaceAll and counts them', () => {
    expect(applyEdits('a-a-a', [{ oldText: 'a', newText: 'bb', replaceAll: true }])).toEqual({ text: 'bb-bb-bb', replacements: 3 });
  });

  it('counts non-overlapping occurrences the way the replacement replaces them', () => {
    // "aa" in "aaaa" is two replacements (left to right), not three overlapping places.
    expect(applyEdits('aaaa', [{ oldText: 'aa', newText: 'b', replaceAll: true }])).toEqual({ text: 'bb', replacements: 2 });
    // One non-overlapping occurrence only: not ambiguous.
    expect(applyEdits('aaa', [{ oldText: 'aa', newText: 'b' }])).toEqual({ text: 'ba', replacements: 1 });
  });

  it('treats $ patterns in newText literally (no String.replace specials)', () => {
    expect(applyEdits('price', [{ oldText: 'price', newText: "$& $1 $' $$" }]).text).toBe("$& $1 $' $$");
  });

  it('NO_MATCH names the edit and hints at whitespace or line-ending differences', () => {
    const noMatch = fails('one\ntwo\n', [
      { oldText: 'one', newText: '1' },
      { oldText: 'three', newText: '3' },
    ]);
    expect(noMatch).toMatchObject({ code: 'NO_MATCH', details: { edit: 2 } });
    expect(noMatch.message).toMatch(/^edit 2: oldText was not found; read the file again/);

    const spaced = fails('if (x) {\n    go();\n}\n', [{ oldText: 'if (x) {\n  go();', newText: '' }]);
    expect(spaced.message).toContain('matches when whitespace is ignored');

    const endings = fails('a\nb\n', [{ oldText: 'a\r\nb', newText: '' }]);
    expect(endings.message).toContain('different line endings');
  });

  it('AMBIGUOUS_MATCH lists the 1-based line of every occurrence', () => {
    const error = fails('x = 1\ny = 2\nx = 1\n\nx = 1\n', [{ oldText: 'x = 1', newText: 'x = 3' }]);
    expect(error).toMatchObject({ code: 'AMBIGUOUS_MATCH', details: { edit: 1, lines: [1, 3, 5] } });
    expect(error.message).toContain('occurs 3 times (lines 1, 3, 5)');
    expect(error.message).toContain('replaceAll: true');
  });

  it('AMBIGUOUS_MATCH gives the line where a multi-line occurrence starts, and at most 20 lines', () => {
    const text = 'head\n' + 'a\nb\n'.repeat(30);
    const error = fails(text, [{ oldText: 'a\nb', newText: 'c' }]);
    expect(error.details?.lines).toEqual(Array.from({ length: 20 }, (_, i) => 2 + 2 * i));
    expect(error.message).toMatch(/occurs 30 times \(lines 2, 4, .*, 40, \.\.\.\)/);
  });

  it('a later edit that fails after an earlier one succeeded still fails the whole list', () => {
    const error = fails('one two', [
      { oldText: 'one', newText: 'two' },
      { oldText: 'two', newText: 'three' }, // now ambiguous: the first edit made a second "two"
    ]);
    expect(error).toMatchObject({ code: 'AMBIGUOUS_MATCH', details: { edit: 2, lines: [1, 1] } });
  });

  it('refuses an empty oldText', () => {
    expect(fails('abc', [{ oldText: '', newText: 'x' }])).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('bounds the text after every edit, naming the edit, the size and the limit', () => {
    const edits = Array.from({ length: 30 }, () => ({ oldText: 'x', newText: 'xx', replaceAll: true }));
    const error = (() => {
      try {
        applyEdits('x', edits, { maxBytes: 1000, path: '/r/f.txt' });
      } catch (caught) {
        return caught as Error & { code: string; details?: Record<string, unknown> };
      }
      throw new Error('expected applyEdits to fail');
    })();
    expect(error.code).toBe('INVALID_INPUT');
    // 2^10 = 1024 > 1000: the tenth edit is refused before it is built.
    expect(error.message).toBe('/r/f.txt would be 1024 bytes after edit 10; the limit is 1000 (filesystem.maxWriteBytes); nothing was changed');
    expect(error.details).toEqual({ edit: 10 });
    expect(applyEdits('x', edits.slice(0, 9), { maxBytes: 1000, path: '/r/f.txt' }).text).toHaveLength(512);
  });
});
