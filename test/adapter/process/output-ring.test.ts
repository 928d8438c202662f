import { describe, expect, it } from 'vitest';
import { OutputRing } from '../../../adapter/process/output-ring.js';

describe('OutputRing', () => {
  it('reads on from an offset without repeats', () => {
    const ring = new OutputRing(100);
    ring.push(Buffer.from('hello '));
    ring.push(Buffer.from('world'));
    const first = ring.read(0, 6);
    expect([first.data.toString(), first.offset, first.next, first.dropped]).toEqual(['hello ', 0, 6, 0]);
    const second = ring.read(first.next, 100);
    expect([second.data.toString(), second.next]).toEqual(['world', 11]);
    expect(ring.read(11, 100).data.length).toBe(0);
  });

  it('keeps only the last `limit` bytes and says how much a late reader lost', () => {
    const ring = new OutputRing(10);
    for (let i = 0; i < 10; i++) ring.push(Buffer.from(`${i}abc`)); // 40 bytes
    expect(ring.end).toBe(40);
    expect(ring.start).toBe(30);
    const late = ring.read(0, 100);
    expect([late.data.toString(), late.offset, late.dropped]).toEqual(['7abc8abc9abc'.slice(-10), 30, 30]);
  });

  it('takes one chunk larger than the ring', () => {
    const ring = new OutputRing(4);
    ring.push(Buffer.from('0123456789'));
    expect(ring.read(0, 10).data.toString()).toBe('6789');
    expect(ring.end).toBe(10);
  });

  it('never splits a UTF-8 character, at either end, unless the stream is final', () => {
    const ring = new OutputRing(100);
    ring.push(Buffer.from('é'.repeat(5))); // 10 bytes
    const cut = ring.read(0, 5);
    expect(cut.data.toString()).toBe('éé');
    expect(cut.next).toBe(4);
    ring.push(Buffer.from([0xc3])); // half a character at the end
    expect(ring.read(10, 10).data.length).toBe(0);
    expect(ring.read(10, 10, true).data).toEqual(Buffer.from([0xc3]));
    const overwritten = new OutputRing(3);
    overwritten.push(Buffer.from('aé€')); // a(1) é(2) €(3): the ring keeps the € only
    expect(overwritten.read(0, 10).data.toString()).toBe('€');
  });
});
