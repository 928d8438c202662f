import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { loadTokenCounter, surelyWithin } from '../../../main/mcp/answer/token-count.js';

const counter = await loadTokenCounter();

describe('the token counter', () => {
  it('counts like o200k_base, a little over at most where it encodes in chunks', () => {
    const prose = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(400);
    const exact = countTokens(prose);
    expect(counter.count(prose)).toBeGreaterThanOrEqual(exact);
    expect(counter.count(prose)).toBeLessThanOrEqual(exact * 1.02);
    expect(counter.count('short text')).toBe(countTokens('short text'));
  });

  it('counts special-token text as text instead of refusing it', () => {
    expect(counter.count('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('stays fast on one huge word (byte-pair encoding is superlinear in a word’s length)', () => {
    const started = performance.now();
    expect(counter.within('a'.repeat(1_000_000), 8000)).toBe(false);
    expect(counter.count('😀'.repeat(4000))).toBeGreaterThanOrEqual(4000);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('within stops at the limit', () => {
    expect(counter.within('one two three', 100)).toBe(3);
    expect(counter.within('one two three', 2)).toBe(false);
  });
});

describe('surelyWithin', () => {
  it('is true only when the UTF-8 bytes are within the tokens', () => {
    expect(surelyWithin('abc', 3)).toBe(true);
    expect(surelyWithin('abcd', 3)).toBe(false);
    expect(surelyWithin('ééé', 5)).toBe(false);
    expect(surelyWithin('ééé', 6)).toBe(true);
  });
});
