import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath } from '../../../../adapter/contract/files.js';
import { readFileAs } from '../../../../adapter/fs/formats/read-as.js';
import { docxFile } from '../../../helpers/office-files.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

const guard = (file: string): GuardedPath => ({ path: file, confirm: () => undefined });
const image = { maxWidth: 1568, maxHeight: 1568, maxPixels: 1_150_000 };
const write = (name: string, data: Uint8Array) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
};

describe('fs.read of a Word document', () => {
  it('reads headings, lists and tables as Markdown, whatever the file is named', async () => {
    const file = write(
      'report.dat',
      docxFile([
        { heading: 1, text: 'Q3 report' },
        { text: 'Sales grew.' },
        { bullet: 'north' },
        { bullet: 'south' },
        { numbered: 'hire' },
        {
          table: [
            ['Region', 'Sales'],
            ['North', '12'],
          ],
        },
      ]),
    );
    const read = await readFileAs(guard(file), { maxBytes: 1 << 20, image });
    expect(read).toMatchObject({ kind: 'docx', startLine: 1, endLine: 12, totalLines: 12 });
    expect(read.kind === 'docx' && read.content).toBe(
      '# Q3 report\n\nSales grew.\n\n- north\n- south\n\n1. hire\n\n| Region | Sales |\n| --- | --- |\n| North | 12 |',
    );
  });

  it('names a picture by its alt text without reading the image', async () => {
    const file = write('picture.docx', docxFile([{ text: 'Before' }, { picture: 'Sales by region' }, { text: 'After' }]));
    const read = await readFileAs(guard(file), { maxBytes: 1 << 20, image });
    expect(read.kind === 'docx' && read.content).toBe('Before\n\n[image: Sales by region]\n\nAfter');
  });

  it('pages by lines and stops at maxBytes with the line to read on from', async () => {
    const file = write('long.docx', docxFile(Array.from({ length: 50 }, (_, i) => ({ text: `Paragraph ${i + 1} of the long document.` }))));
    const cut = await readFileAs(guard(file), { maxBytes: 200, image });
    expect(cut).toMatchObject({ kind: 'docx', startLine: 1, totalLines: 99 });
    const next = cut.kind === 'docx' ? cut.nextLine! : 0;
    expect(next).toBeGreaterThan(5);
    const on = await readFileAs(guard(file), { maxBytes: 1 << 20, image, startLine: next, endLine: next + 2 });
    expect(on).toMatchObject({ kind: 'docx', startLine: next, endLine: next + 2 });
    expect(on.kind === 'docx' && on.content).toMatch(/^(Paragraph \d+ of the long document\.)?\n/);
    await expect(readFileAs(guard(file), { maxBytes: 100, image, startLine: 500 })).rejects.toThrow(
      /converts to 99 lines of text; startLine 500 is past the end/,
    );
  });

  it('refuses a damaged document with an error naming the format, returning nothing', async () => {
    const good = docxFile([{ text: 'x' }]);
    const broken = zipSync({ '[Content_Types].xml': new Uint8Array(0), 'word/document.xml': new TextEncoder().encode('<w:document><w:body><w:p>') });
    await expect(readFileAs(guard(write('broken.docx', broken)), { maxBytes: 1 << 20, image })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/broken\.docx is a Word document \(DOCX\) that could not be read \(.+\); nothing was returned/),
    });
    await expect(readFileAs(guard(write('cut.docx', good.subarray(0, good.length - 40))), { maxBytes: 1 << 20, image })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/could not be read/),
    });
  });
});
