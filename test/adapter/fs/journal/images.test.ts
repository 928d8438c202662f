import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capture, fullyKept, type Image, type KeepBytes } from '../../../../adapter/fs/journal/images.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

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

describe('capture of a folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'd', 'sub'), { recursive: true });
    for (const name of ['a', 'b', 'sub/c']) fs.writeFileSync(path.join(dir, 'd', name), name);
  });
  afterEach(() => removeDir(dir));

  it('leaves out, and says, an entry it cannot keep (swapped meanwhile), not the whole folder', async () => {
    const keep: KeepBytes = async (file, seen) => {
      if (String(file).endsWith('/b')) throw Object.assign(new Error('it was replaced while it was being kept'), { code: 'ESTALE' });
      return { blob: `blob-${seen.size}` };
    };
    const image = await capture(path.join(dir, 'd'), 'tree', keep);
    expect(fullyKept(image)).toEqual({ kept: true, missing: ['b: it was replaced while it was being kept'] });
    expect(image).toMatchObject({
      type: 'directory',
      entries: [{ name: 'a' }, { name: 'b', image: { type: 'other' } }, { name: 'sub', image: { type: 'directory' } }],
    });
  });
});
