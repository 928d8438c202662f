import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { cutMiddle, fitBackward, fitForward, jsonEscaped, lineCount } from '../../../main/mcp/answer/text-cut.js';
import { loadTokenCounter } from '../../../main/mcp/answer/token-count.js';

const counter = await loadTokenCounter();
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('fitForward / fitBackward', () => {
  it('keep whole lines within the tokens, from either end', () => {
    const text = numbers(1000);
    const head = fitForward(text, 0, text.length, 100, counter);
    expect(text[head.to - 1]).toBe('\n');
    expect(countTokens(text.slice(0, head.to))).toBeLessThanOrEqual(100);
    expect(countTokens(text.slice(0, text.indexOf('\n', head.to) + 1))).toBeGreaterThan(100);
    const tail = fitBackward(text, 0, text.length, 100, counter);
    expect(text[tail.to - 1]).toBe('\n');
    expect(countTokens(text.slice(tail.to))).toBeLessThanOrEqual(100);
  });

  it('cut inside one long line rather than return almost nothing, never splitting a surrogate pair', () => {
    const text = '😀'.repeat(5000);
    const head = fitForward(text, 0, text.length, 50, counter);
    expect(head.to).toBeGreaterThan(0);
    expect(head.to % 2).toBe(0);
    expect(countTokens(text.slice(0, head.to))).toBeLessThanOrEqual(50);
    const tail = fitBackward(text, 0, text.length, 50, counter);
    expect(tail.to % 2).toBe(0);
    expect(tail.to).toBeLessThan(text.length);
  });

  it('measure JSON-escaped text as structuredContent carries it', () => {
    const text = 'say "hi"\t\\\n'.repeat(400);
    const fit = fitForward(text, 0, text.length, 200, counter, jsonEscaped);
    expect(countTokens(JSON.stringify(text.slice(0, fit.to)))).toBeLessThanOrEqual(202);
  });
});

describe('cutMiddle', () => {
  it('keeps a head and a tail that fit together, the middle between them', () => {
    const text = numbers(20_000);
    const { headEnd, tailStart } = cutMiddle(text, 1000, counter);
    expect(headEnd).toBeGreaterThan(0);
    expect(tailStart).toBeGreaterThan(headEnd);
    expect(countTokens(text.slice(0, headEnd)) + countTokens(text.slice(tailStart))).toBeLessThanOrEqual(1000);
    expect(text.slice(tailStart).endsWith('line 20000\n')).toBe(true);
  });
});

describe('lineCount', () => {
  it('counts a last line without a newline', () => {
    expect(lineCount('a\nb\nc', 0, 5)).toBe(3);
    expect(lineCount('a\nb\n', 0, 4)).toBe(2);
    expect(lineCount('a\nb\n', 2, 2)).toBe(0);
  });
});
