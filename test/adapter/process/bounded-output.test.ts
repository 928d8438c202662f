import { describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../../adapter/process/bounded-output.js';

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

describe('BoundedOutput keeping the tail', () => {
  it('keeps the last bytes, on a whole character', () => {
    const out = new BoundedOutput(5, 'tail');
    out.push(Buffer.from('first line\n'));
    out.push(Buffer.from('€end'));
    // The last 5 bytes start inside the euro sign: the partial character is left out.
    expect(out.result()).toEqual({ text: 'end', truncated: true });
    const exact = new BoundedOutput(4, 'tail');
    exact.push(Buffer.from('abcd'));
    expect(exact.result()).toEqual({ text: 'abcd', truncated: false });
  });

  it('holds only the bound, whatever comes', () => {
    const out = new BoundedOutput(1024, 'tail');
    for (let i = 0; i < 1000; i++) out.push(Buffer.alloc(64 * 1024, i % 2 ? 0x61 : 0x62));
    expect(out.result()).toEqual({ text: 'a'.repeat(1024), truncated: true });
  });
});
