import { describe, expect, it } from 'vitest';
import { BoundedOutput, utf8Boundary } from '../../../adapter/process/bounded-output.js';

describe('utf8Boundary', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');

  it.each([
    // [text, max, expected cut]
    ['abc', 2, 2],
    ['abc', 10, 3],
    ['aé', 2, 1], // é is 2 bytes: a lone lead byte is dropped
    ['aé', 3, 3],
    ['a€', 3, 1], // € is 3 bytes
    ['a€', 4, 4],
    ['a😀', 4, 1], // 😀 is 4 bytes
    ['a😀', 5, 5],
    ['😀', 0, 0],
  ] as Array<[string, number, number]>)('%j cut at %d -> %d', (text, max, expected) => {
    expect(utf8Boundary(bytes(text), max)).toBe(expected);
  });

  it('leaves invalid input (only continuation bytes) as is', () => {
    expect(utf8Boundary(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80]), 5)).toBe(5);
  });
});

describe('BoundedOutput', () => {
  it('keeps everything below the bound, untruncated', () => {
    const out = new BoundedOutput(10);
    out.push(Buffer.from('hello '));
    out.push(Buffer.from('you'));
    expect(out.result()).toEqual({ text: 'hello you', truncated: false });
  });

  it('exactly at the bound is not truncated; one byte more is', () => {
    const exact = new BoundedOutput(3);
    exact.push(Buffer.from('abc'));
    expect(exact.result()).toEqual({ text: 'abc', truncated: false });
    const over = new BoundedOutput(3);
    over.push(Buffer.from('abc'));
    over.push(Buffer.from('d'));
    expect(over.result()).toEqual({ text: 'abc', truncated: true });
  });

  it('never splits a character across the cut, even across chunks', () => {
    const out = new BoundedOutput(5);
    const euro = Buffer.from('€€', 'utf8'); // 6 bytes
    out.push(euro.subarray(0, 2));
    out.push(euro.subarray(2));
    expect(out.result()).toEqual({ text: '€', truncated: true });
  });

  it('accepts unbounded input while holding only the bound', () => {
    const out = new BoundedOutput(1024);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 1000; i++) out.push(chunk);
    const { text, truncated } = out.result();
    expect(truncated).toBe(true);
    expect(text).toBe('a'.repeat(1024));
  });
});
