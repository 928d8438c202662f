import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../../adapter/process/map-limit.js';

describe('mapLimit', () => {
  it('keeps order and never runs more than `limit` at once', async () => {
    let active = 0;
    let peak = 0;
    const items = Array.from({ length: 50 }, (_, i) => i);
    const results = await mapLimit(items, 4, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, n % 3));
      active--;
      return n * 2;
    });
    expect(results).toEqual(items.map((n) => n * 2));
    expect(peak).toBe(4);
  });

  it('handles empty input and rejects when a call rejects', async () => {
    expect(await mapLimit([], 8, async () => 1)).toEqual([]);
    await expect(mapLimit([1, 2], 2, async (n) => (n === 2 ? Promise.reject(new Error('boom')) : n))).rejects.toThrow('boom');
  });
});
