import { describe, expect, it } from 'vitest';
import { utf8Boundary } from '../../../adapter/process/utf8.js';

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
