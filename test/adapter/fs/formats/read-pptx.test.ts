import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath, PptxFileRead, ReadAsOptions } from '../../../../adapter/contract/files.js';
import { readFileAs } from '../../../../adapter/fs/formats/read-as.js';
import { pptxFile } from '../../../helpers/office-files.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
let deck: string;
beforeAll(() => {
  dir = makeTempDir();
  deck = path.join(dir, 'deck.pptx');
  const slides = Array.from({ length: 12 }, (_, i) => [`Slide ${i + 1} title`, `Point <${i + 1}> & more`]);
  slides[3] = [];
  fs.writeFileSync(deck, pptxFile(slides));
});
afterAll(() => removeDir(dir));

const guard = (file: string): GuardedPath => ({ path: file, confirm: () => undefined });
const read = async (options: Partial<ReadAsOptions>) =>
  (await readFileAs(guard(deck), { maxBytes: 1 << 20, image: { maxWidth: 1, maxHeight: 1, maxPixels: 1 }, ...options })) as PptxFileRead;

describe('fs.read of a presentation', () => {
  it('reads slide text in the presentation’s order, not its part names’', async () => {
    const all = await read({});
    expect(all).toMatchObject({ kind: 'pptx', totalSlides: 12, firstSlide: 1, lastSlide: 12 });
    expect(all.slides[0]).toEqual({ slide: 1, text: 'Slide 1 title\nPoint <1> & more' });
    expect(all.slides[3]).toEqual({ slide: 4, text: '' });
    expect(all.slides[11]!.text).toContain('Slide 12 title');
  });

  it('reads a range of slides, stops at maxBytes with the slide to read on from, and says where the end is', async () => {
    const range = await read({ pages: { first: 2, last: 3 } });
    expect(range.slides.map((s) => s.slide)).toEqual([2, 3]);
    expect(range.nextSlide).toBeUndefined();
    const cut = await read({ maxBytes: 60 });
    expect(cut).toMatchObject({ firstSlide: 1, lastSlide: 2, nextSlide: 3 });
    await expect(read({ pages: { first: 13 } })).rejects.toThrow(/has 12 slides; slide 13 is past the end/);
  });
});
