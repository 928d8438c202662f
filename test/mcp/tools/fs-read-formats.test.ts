import { describe, expect, it } from 'vitest';
import { imageOptions, parsePages, pagesInput } from '../../../main/mcp/tools/fs-read-formats.js';

describe('parsePages', () => {
  it('reads a page, a range and an open range; refuses one that runs backward or starts at 0', () => {
    expect(parsePages(undefined)).toBeUndefined();
    expect(parsePages('3')).toEqual({ first: 3, last: 3 });
    expect(parsePages(' 2 - 5 ')).toEqual({ first: 2, last: 5 });
    expect(parsePages('4-')).toEqual({ first: 4 });
    expect(() => parsePages('5-2')).toThrow(/range runs forward/);
    expect(() => parsePages('0')).toThrow(/start at 1/);
    expect(pagesInput.safeParse('1,3').success).toBe(false);
  });
});

describe('imageOptions', () => {
  it('uses the captures’ limits, a smaller edge for a small budget, and only the caller’s limits when given', () => {
    expect(imageOptions({}, 8000)).toEqual({ maxWidth: 1568, maxHeight: 1568, maxPixels: 1_150_000 });
    expect(imageOptions({}, 1000)).toMatchObject({ maxWidth: 768, maxHeight: 768 });
    expect(imageOptions({ maxWidth: 3000, imageFormat: 'jpeg' }, 8000)).toEqual({
      maxWidth: 3000,
      maxHeight: 1568,
      maxPixels: Number.MAX_SAFE_INTEGER,
      format: 'jpeg',
    });
  });
});
