import { describe, expect, it } from 'vitest';
import { compileMatcher, isBinary, matchLines } from '../../../../adapter/fs/search/match-lines.js';

const lines = (text: string, pattern: string, options: { regex?: boolean; caseSensitive?: boolean; context?: number; limit?: number } = {}) =>
  matchLines(Buffer.from(text), compileMatcher(pattern, options.regex ?? false, options.caseSensitive ?? true), options.context ?? 0, options.limit ?? 100);

describe('matchLines', () => {
  it('gives 1-based lines and the column of the first match (UTF-16 units)', () => {
    expect(lines('x\nab needle needle\n', 'needle').matches).toEqual([{ line: 2, column: 4, text: 'ab needle needle' }]);
    expect(lines('é needle', 'needle').matches[0]?.column).toBe(3);
  });

  it('a literal pattern is literal, regex metacharacters included', () => {
    expect(lines('a.b\naxb\n', 'a.b').matches.map((m) => m.line)).toEqual([1]);
    expect(lines('(x)\n', '(x)').matches).toHaveLength(1);
  });

  it('case-insensitive matching folds Unicode letters', () => {
    expect(lines('ÉCOLE\n', 'école', { caseSensitive: false }).matches).toHaveLength(1);
    expect(lines('ÉCOLE\n', 'école').matches).toHaveLength(0);
  });

  it('matches CRLF lines without their CR, so $ works', () => {
    expect(lines('end\r\nx\r\n', 'end$', { regex: true }).matches).toEqual([{ line: 1, column: 1, text: 'end' }]);
  });

  it('context lines, cut at the file’s start and end', () => {
    expect(lines('a\nb\nmatch\nc\n', 'match', { context: 5 }).matches).toEqual([{ line: 3, column: 1, text: 'match', before: ['a', 'b'], after: ['c'] }]);
  });

  it('stops at the limit and says there is more', () => {
    expect(lines('n\nn\nn\n', 'n', { limit: 2 })).toMatchObject({ matches: [{ line: 1 }, { line: 2 }], more: true });
    expect(lines('n\nn\n', 'n', { limit: 2 }).more).toBe(false);
    expect(lines('n\n', 'n', { limit: 0 })).toEqual({ matches: [], more: true });
  });

  it('cuts very long lines at 400 characters', () => {
    const [match] = lines(`needle${'x'.repeat(1000)}`, 'needle').matches;
    expect(match?.text).toHaveLength(401);
    expect(match?.text.endsWith('…')).toBe(true);
  });

  it('reads invalid UTF-8 leniently; a NUL byte makes content binary', () => {
    expect(matchLines(Buffer.from([0x6e, 0xff, 0x0a]), compileMatcher('n', false, true), 0, 10).matches).toEqual([{ line: 1, column: 1, text: 'n\ufffd' }]);
    expect(isBinary(Buffer.from([0x61, 0x00]))).toBe(true);
    expect(isBinary(Buffer.from('text'))).toBe(false);
  });

  it('an invalid regular expression throws', () => {
    expect(() => compileMatcher('(', true, true)).toThrow();
  });
});
