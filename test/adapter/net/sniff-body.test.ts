import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sniffBody } from '../../../adapter/net/sniff-body.js';

describe('sniffBody', () => {
  it.each([
    [Buffer.from('%PDF-1.7\n'), 'pdf'],
    [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'png'],
    [Buffer.from('PK\x03\x04rest', 'latin1'), 'zip'],
    [gzipSync('x'), 'gzip'],
    [Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), 'elf'],
    [Buffer.from('  <!DOCTYPE html><html>'), 'html'],
    [Buffer.from('plain words, ünïcode too'), 'text'],
    [Buffer.from([1, 2, 0, 3]), 'binary'],
    [Buffer.from([0xc3, 0x28, 0x41]), 'binary'],
    [Buffer.alloc(0), 'text'],
    [Buffer.from('ab'), 'text'],
  ])('%s is %s', (data, kind) => {
    expect(sniffBody(data)).toBe(kind);
  });

  it('does not call text binary because a character is cut at the sniffed slice', () => {
    const text = Buffer.from(`${'a'.repeat(511)}é and more`);
    expect(sniffBody(text)).toBe('text');
  });
});
