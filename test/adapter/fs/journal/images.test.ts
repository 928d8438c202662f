import { describe, expect, it } from 'vitest';
import { fullyKept, type Image } from '../../../../adapter/fs/journal/images.js';

describe('fullyKept', () => {
  it('looks at each entry of a deep folder once (a model can delete a chain 400 folders deep)', () => {
    let image: Image = { type: 'file', mode: 0o644, mtimeMs: 0, size: 1, blob: '0' };
    for (let i = 0; i < 400; i++)
      image = {
        type: 'directory',
        mode: 0o755,
        entries: [
          { name: 'd', image },
          { name: `f${i}`, image: { type: 'other', why: 'a fifo' } },
        ],
      };
    const started = performance.now();
    const kept = fullyKept(image);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(kept.kept).toBe(true);
    expect(kept.missing).toEqual([expect.stringMatching(/ and 395 more: a fifo$/)]);
  }, 5000);
});
