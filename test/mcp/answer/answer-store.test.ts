import { describe, expect, it } from 'vitest';
import { AnswerStore } from '../../../main/mcp/answer/answer-store.js';

describe('AnswerStore', () => {
  it('keeps texts under opaque ids and gives them back', () => {
    const store = new AnswerStore();
    const id = store.put({ text: 'hello', start: 1, end: 4 })!;
    expect(AnswerStore.isId(id)).toBe(true);
    expect(store.get(id)).toEqual({ text: 'hello', start: 1, end: 4, used: expect.any(Number) });
    expect(store.get('ans_AAAAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
  });

  it('stays within its size: the least recently read go first; too large is refused', () => {
    const store = new AnswerStore({ maxChars: 10, ttlMs: 60_000 });
    const a = store.put({ text: 'aaaa', start: 0, end: 4 })!;
    const b = store.put({ text: 'bbbb', start: 0, end: 4 })!;
    store.get(a);
    const c = store.put({ text: 'cccc', start: 0, end: 4 })!;
    expect(store.get(b)).toBeUndefined();
    expect(store.get(a)?.text).toBe('aaaa');
    expect(store.get(c)?.text).toBe('cccc');
    expect(store.size.chars).toBeLessThanOrEqual(10);
    expect(store.put({ text: 'x'.repeat(11), start: 0, end: 11 })).toBeNull();
  });

  it('forgets an entry unread for its time to live', () => {
    let now = 0;
    const store = new AnswerStore({ maxChars: 100, ttlMs: 1000, now: () => now });
    const id = store.put({ text: 'x', start: 0, end: 1 })!;
    now = 999;
    expect(store.get(id)).toBeDefined();
    now = 2000;
    expect(store.get(id)).toBeUndefined();
    expect(store.size).toEqual({ entries: 0, chars: 0 });
  });
});
