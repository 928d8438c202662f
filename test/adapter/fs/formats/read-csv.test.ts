import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath, ReadAsOptions, XlsxFileRead } from '../../../../adapter/contract/files.js';
import { readFileAs } from '../../../../adapter/fs/formats/read-as.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

const guard = (file: string): GuardedPath => ({ path: file, confirm: () => undefined });
const image = { maxWidth: 1, maxHeight: 1, maxPixels: 1 };
async function read(name: string, content: string, options: Partial<ReadAsOptions>) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return (await readFileAs(guard(file), { maxBytes: 1 << 20, image, ...options })) as XlsxFileRead;
}

describe('fs.read of a text file with a range: CSV as a table', () => {
  it('parses quoted fields (commas, quotes and line breaks inside) into a range of cells', async () => {
    const table = await read('people.csv', '\uFEFFname,note,age\n"Doe, Jane","said ""hi""\nthen left",41\nBob,,7\n', { range: 'A1:C3' });
    expect(table).toMatchObject({ kind: 'csv', sheet: 'people.csv', sheets: [{ name: 'people.csv', dimension: 'A1:C3' }], range: 'A1:C3' });
    expect(table.rows).toEqual([
      { row: 1, cells: ['name', 'note', 'age'] },
      { row: 2, cells: ['Doe, Jane', 'said "hi"\nthen left', '41'] },
      { row: 3, cells: ['Bob', '', '7'] },
    ]);
  });

  it('finds a tab or semicolon separator, and reads a block of a wide table with the rest named', async () => {
    expect((await read('t.tsv', 'a\tb\n1\t2\n', { range: 'B2' })).rows).toEqual([{ row: 2, cells: ['2'] }]);
    expect((await read('s.csv', 'a;b;c\n', { range: 'A1:C1' })).rows).toEqual([{ row: 1, cells: ['a', 'b', 'c'] }]);
    const wide = Array.from({ length: 3 }, (_, r) => Array.from({ length: 60 }, (_, c) => `r${r + 1}c${c + 1}`).join(',')).join('\n');
    const block = await read('wide.csv', wide, { range: 'A1:BH3', maxBytes: 500 });
    expect(block.columns).toHaveLength(50);
    expect(block).toMatchObject({ range: 'A1:AX1', nextRange: 'A2:AX3', moreColumns: 'AY1:BH3' });
  });

  it('refuses a malformed CSV naming the format, and reads it as text without a range', async () => {
    await expect(read('bad.csv', 'a,"b\n1,2\n', { range: 'A1' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/bad\.csv is a CSV file that could not be read \(.+\); nothing was returned/),
    });
    expect(await read('plain.csv', 'a,b\n', {})).toMatchObject({ kind: 'text', content: 'a,b\n' });
  });
});
