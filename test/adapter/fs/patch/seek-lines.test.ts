import { describe, expect, it } from 'vitest';
import { seek } from '../../../../adapter/fs/patch/seek-lines.js';

describe('seek', () => {
  const lines = ['foo   ', '    bar\t', 'baz', 'qux'];
  it('tries exact, then trailing whitespace, then both sides, then typographic punctuation', () => {
    expect(seek(['a', 'b', 'c'], ['b', 'c'], 0)).toBe(1);
    expect(seek(lines, ['foo', '    bar'], 0)).toBe(0);
    expect(seek(lines, ['foo', 'bar'], 0)).toBe(0);
    expect(seek(['say \u201chi\u201d \u2014 it\u2019s\u00a0me'], ['say "hi" - it\'s me'], 0)).toBe(0);
    expect(seek(lines, ['nope'], 0)).toBe(-1);
  });

  it('prefers a stricter match later in the file over a looser one earlier', () => {
    expect(seek(['  x', 'x'], ['x'], 0)).toBe(1);
  });

  it('looks only at or after start, and at the end first for End of File', () => {
    expect(seek(['a', 'b', 'a'], ['a'], 1)).toBe(2);
    expect(seek(['a', 'b', 'a'], ['a'], 0, true)).toBe(2);
    expect(seek(['a'], ['a', 'b'], 0)).toBe(-1);
    expect(seek(['a'], [], 0)).toBe(0);
  });

  it('finds a chunk after repeated partial matches (the KMP fallback), and not one that is not there', () => {
    expect(seek(['a', 'a', 'b', 'a', 'a', 'a', 'c'], ['a', 'a', 'c'], 0)).toBe(4);
    expect(seek(['a', 'b', 'a', 'b', 'a', 'c'], ['a', 'b', 'a', 'c'], 0)).toBe(2);
    expect(seek(['a', 'a', 'a'], ['a', 'a', 'a', 'a'], 0)).toBe(-1);
  });

  it('is linear: a long chunk of repeated lines that is not in a large file of them is refused at once', () => {
    const file = Array<string>(200_000).fill('x');
    const chunk = [...Array<string>(5000).fill('x'), 'y'];
    const started = performance.now();
    expect(seek(file, chunk, 0)).toBe(-1);
    // Line by line at every place this was 200,000 x 5,000 comparisons per level: many minutes.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
