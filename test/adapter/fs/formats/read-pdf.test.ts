import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath } from '../../../../adapter/contract/files.js';
import { readPdf } from '../../../../adapter/fs/formats/read-pdf.js';
import { bombPdf, textPdf } from '../../../helpers/pdf-file.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
let book: string;
beforeAll(() => {
  dir = makeTempDir();
  book = path.join(dir, 'book.pdf');
  fs.writeFileSync(book, textPdf([1, 2, 3, 4, 5].map((n) => [`Chapter ${n}`, `Line two of page ${n}`])));
});
afterAll(() => removeDir(dir));

const guard = (file: string, seen: string[] = []): GuardedPath => ({ path: file, confirm: (real) => void seen.push(real) });

describe('readPdf', () => {
  it('reads every page’s text from a PDF, confirming what it opened', async () => {
    const seen: string[] = [];
    const read = await readPdf(guard(book, seen), { first: 1 }, 1 << 20);
    expect(read).toMatchObject({ kind: 'pdf', totalPages: 5, firstPage: 1, lastPage: 5 });
    expect(read.nextPage).toBeUndefined();
    expect(read.pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5]);
    expect(read.pages[2]!.text).toMatch(/Chapter 3\s+Line two of page 3/);
    expect(seen).toEqual([book]);
  });

  it('reads a page range, and stops at maxBytes with the page to read on from', async () => {
    const range = await readPdf(guard(book), { first: 2, last: 3 }, 1 << 20);
    expect(range.pages.map((p) => p.page)).toEqual([2, 3]);
    expect(range.nextPage).toBeUndefined();
    const cut = await readPdf(guard(book), { first: 1 }, 40);
    expect(cut.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(cut).toMatchObject({ lastPage: 2, nextPage: 3 });
    await expect(readPdf(guard(book), { first: 9 }, 100)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('has 5 pages; page 9 is past the end'),
    });
  });

  it('says a scanned page has no text layer (an empty text)', async () => {
    const scan = path.join(dir, 'scan.pdf');
    fs.writeFileSync(scan, textPdf([['Cover'], []]));
    const read = await readPdf(guard(scan), { first: 1 }, 1 << 20);
    expect(read.pages).toEqual([
      { page: 1, text: 'Cover' },
      { page: 2, text: '' },
    ]);
  });

  it('refuses a stream bomb before pdf.js inflates it, within a time bound', async () => {
    const file = path.join(dir, 'bomb.pdf');
    fs.writeFileSync(file, bombPdf(200 * 1024 * 1024));
    expect(fs.statSync(file).size).toBeLessThan(1024 * 1024);
    const started = Date.now();
    await expect(readPdf(guard(file), { first: 1 }, 1 << 20)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('a stream inflates to over 64 MiB'),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a damaged PDF with a clear error and returns nothing', async () => {
    const file = path.join(dir, 'broken.pdf');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64, 0x41)]));
    await expect(readPdf(guard(file), { first: 1 }, 1 << 20)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is a PDF file that could not be read'),
    });
  });
});
