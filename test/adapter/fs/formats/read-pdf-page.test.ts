import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath } from '../../../../adapter/contract/files.js';
import { MAX_PAGE_PIXELS, readPdfPage } from '../../../../adapter/fs/formats/read-pdf-page.js';
import { bombPdf, textPdf } from '../../../helpers/pdf-file.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
let book: string;
beforeAll(() => {
  dir = makeTempDir();
  book = path.join(dir, 'book.pdf');
  fs.writeFileSync(book, textPdf([['First page'], ['SECOND PAGE IN BIG LETTERS', 'and a second line'], []]));
});
afterAll(() => removeDir(dir));

const guard = (file: string): GuardedPath => ({ path: file, confirm: () => undefined });
const capture = { maxWidth: 1568, maxHeight: 1568, maxPixels: 1_150_000 };

/** Dark pixels in the image's top-left quarter (where textPdf draws its lines). */
async function inkAtTop(png: Uint8Array): Promise<number> {
  const image = sharp(png);
  const { width = 0, height = 0 } = await image.metadata();
  const { data } = await image
    .extract({ left: 0, top: 0, width: Math.floor(width / 2), height: Math.floor(height / 4) })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data.filter((v) => v < 128).length;
}

describe('readPdfPage', () => {
  it('renders the page asked for as a PNG within the capture limits, with the page’s size in points', async () => {
    const read = await readPdfPage(guard(book), 2, capture);
    expect(read).toMatchObject({
      kind: 'image',
      sourceFormat: 'pdf',
      page: { page: 2, totalPages: 3 },
      mimeType: 'image/png',
      originalWidth: 612,
      originalHeight: 792,
    });
    expect(read.height).toBeLessThanOrEqual(1568);
    expect(read.width * read.height).toBeLessThanOrEqual(1_150_000);
    const meta = await sharp(read.data).metadata();
    expect([meta.width, meta.height]).toEqual([read.width, read.height]);
    expect(await inkAtTop(read.data)).toBeGreaterThan(200);
    const blank = await readPdfPage(guard(book), 3, capture);
    expect(await inkAtTop(blank.data)).toBe(0);
  });

  it('keeps a page with a huge media box within MAX_PAGE_PIXELS whatever the caller asks', async () => {
    const huge = path.join(dir, 'huge.pdf');
    fs.writeFileSync(
      huge,
      textPdf([['x']])
        .toString('latin1')
        .replace('/MediaBox [0 0 612 792]', '/MediaBox [0 0 200000 200000]'),
    );
    const read = await readPdfPage(guard(huge), 1, { maxWidth: 16_384, maxHeight: 16_384, maxPixels: Number.MAX_SAFE_INTEGER });
    expect(read.originalWidth).toBe(200000);
    expect(read.width * read.height).toBeLessThanOrEqual(MAX_PAGE_PIXELS);
  });

  it('says where the pages end, and refuses a stream bomb before pdf.js sees it', async () => {
    await expect(readPdfPage(guard(book), 4, capture)).rejects.toThrow(/has 3 pages; page 4 is past the end/);
    const bomb = path.join(dir, 'bomb.pdf');
    fs.writeFileSync(bomb, bombPdf(200 * 1024 * 1024));
    await expect(readPdfPage(guard(bomb), 1, capture)).rejects.toThrow(/is refused: a stream inflates to over 64 MiB/);
    const cut = path.join(dir, 'cut.pdf');
    fs.writeFileSync(cut, fs.readFileSync(book).subarray(0, 200));
    await expect(readPdfPage(guard(cut), 1, capture)).rejects.toThrow(/cut\.pdf is a PDF file whose page 1 could not be rendered \(.+\); nothing was returned/);
  });
});
