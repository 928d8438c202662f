import fs from 'node:fs';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath, ReadAsOptions, XlsxFileRead } from '../../../../adapter/contract/files.js';
import { readFileAs } from '../../../../adapter/fs/formats/read-as.js';
import { xlsxFile } from '../../../helpers/office-files.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
let book: string;
beforeAll(() => {
  dir = makeTempDir();
  book = path.join(dir, 'book.xlsx');
  const rows = [['Item', 'Qty', 'Paid'], ...Array.from({ length: 300 }, (_, i) => [`item ${i + 1}`, i + 1, i % 2 === 0])];
  fs.writeFileSync(book, xlsxFile({ Orders: rows, 'Notes & more': [['A note', null, 'C1 | piped']], Empty: [] }));
});
afterAll(() => removeDir(dir));

const guard = (file: string): GuardedPath => ({ path: file, confirm: () => undefined });
const read = async (options: Partial<ReadAsOptions>) =>
  (await readFileAs(guard(book), { maxBytes: 1 << 20, image: { maxWidth: 1, maxHeight: 1, maxPixels: 1 }, ...options })) as XlsxFileRead;

describe('fs.read of an Excel workbook', () => {
  it('lists the sheets with their dimensions and reads the first sheet’s used range', async () => {
    const first = await read({});
    expect(first).toMatchObject({ kind: 'xlsx', sheet: 'Orders', range: 'A1:C301', columns: ['A', 'B', 'C'] });
    expect(first.sheets).toEqual([
      { name: 'Orders', dimension: 'A1:C301' },
      { name: 'Notes & more', dimension: 'A1:C1' },
      { name: 'Empty', dimension: '' },
    ]);
    expect(first.rows[0]).toEqual({ row: 1, cells: ['Item', 'Qty', 'Paid'] });
    expect(first.rows[2]).toEqual({ row: 3, cells: ['item 2', '2', 'FALSE'] });
    expect(first.nextRange).toBeUndefined();
  });

  it('reads a sheet by name or number and a range, and an empty sheet as empty', async () => {
    expect(await read({ sheet: 'Notes & more' })).toMatchObject({ sheet: 'Notes & more', rows: [{ row: 1, cells: ['A note', '', 'C1 | piped'] }] });
    const part = await read({ sheet: '1', range: 'B10:C12' });
    expect(part).toMatchObject({ range: 'B10:C12', columns: ['B', 'C'] });
    expect(part.rows).toEqual([
      { row: 10, cells: ['9', 'TRUE'] },
      { row: 11, cells: ['10', 'FALSE'] },
      { row: 12, cells: ['11', 'TRUE'] },
    ]);
    expect(await read({ sheet: 'Empty' })).toMatchObject({ sheet: 'Empty', range: '', rows: [] });
  });

  it('stops at maxBytes with the rest of the range to read on', async () => {
    const cut = await read({ range: 'A1:C301', maxBytes: 300 });
    expect(cut.rows.length).toBeGreaterThan(3);
    const last = cut.rows.at(-1)!.row;
    expect(cut).toMatchObject({ range: `A1:C${last}`, nextRange: `A${last + 1}:C301` });
    const on = await read({ range: cut.nextRange! });
    expect(on.rows[0]!.row).toBe(last + 1);
  });

  it('says what is wrong with a sheet or a range, and names the sheets', async () => {
    await expect(read({ sheet: 'Missing' })).rejects.toThrow(/has no sheet "Missing"; its sheets are "Orders", "Notes & more", "Empty"/);
    await expect(read({ range: 'A1:ZZZZ9' })).rejects.toThrow(/range "A1:ZZZZ9" is not an A1 range: pass a cell \("B2"\) or two corners/);
  });

  it('reads a 15 MB sheet (400,000 cells) as a stream, the event loop turning meanwhile', async () => {
    const big = path.join(dir, 'big.xlsx');
    fs.writeFileSync(big, xlsxFile({ Big: Array.from({ length: 100_000 }, (_, i) => [i, i * 2, `s${i % 1000}`, i % 2 === 0]) }));
    let last = Date.now();
    let gap = 0;
    const timer = setInterval(() => {
      gap = Math.max(gap, Date.now() - last);
      last = Date.now();
    }, 10);
    const read = (await readFileAs(guard(big), { maxBytes: 4096, image: { maxWidth: 1, maxHeight: 1, maxPixels: 1 } }).finally(() =>
      clearInterval(timer),
    )) as XlsxFileRead;
    expect(read.sheets).toEqual([{ name: 'Big', dimension: 'A1:D100000' }]);
    expect(read.nextRange).toMatch(/^A\d+:D100000$/);
    // A parsed tree held the thread for the whole sheet (over 10 s here); chunks of 256 KiB take tens of ms.
    expect(gap).toBeLessThan(2500);
  }, 60_000);

  it('refuses a workbook whose sheet XML is cut, naming the format and the part, returning nothing', async () => {
    const parts = unzipSync(xlsxFile({ S: [['x', 'y']] }));
    const sheet = new TextDecoder().decode(parts['xl/worksheets/sheet1.xml']);
    parts['xl/worksheets/sheet1.xml'] = new TextEncoder().encode(sheet.slice(0, sheet.indexOf('<c r="B1"')));
    const broken = path.join(dir, 'broken.xlsx');
    fs.writeFileSync(broken, zipSync(parts));
    await expect(readFileAs(guard(broken), { maxBytes: 100, image: { maxWidth: 1, maxHeight: 1, maxPixels: 1 } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(
        /broken\.xlsx is an Excel workbook \(XLSX\) that could not be read \(its part xl\/worksheets\/sheet1\.xml is not well-formed XML .*\); nothing was returned/,
      ),
    });
  });
  it('shows numbers under a date or time format as ISO 8601, in either date system, and other numbers as stored', async () => {
    const styles = [0, 14, 'dd/mm/yyyy hh:mm', 20, '0.00%'];
    const row = [{ serial: 46360, style: 1 }, { serial: 46360.395833333336, style: 2 }, { serial: 0.75, style: 3 }, { serial: 0.125, style: 4 }, 46360];
    const dated = path.join(dir, 'dated.xlsx');
    fs.writeFileSync(dated, xlsxFile({ Log: [['Day', 'At', 'Time', 'Share', 'Plain'], row] }, { styles }));
    const read1900 = (await readFileAs(guard(dated), { maxBytes: 1 << 20, image: { maxWidth: 1, maxHeight: 1, maxPixels: 1 } })) as XlsxFileRead;
    expect(read1900.rows[1]).toEqual({ row: 2, cells: ['2026-12-04', '2026-12-04 09:30:00', '18:00:00', '0.125', '46360'] });
    const mac = path.join(dir, 'dated-1904.xlsx');
    fs.writeFileSync(mac, xlsxFile({ Log: [[{ serial: 44898, style: 1 }]] }, { styles, date1904: true }));
    const read1904 = (await readFileAs(guard(mac), { maxBytes: 1 << 20, image: { maxWidth: 1, maxHeight: 1, maxPixels: 1 } })) as XlsxFileRead;
    expect(read1904.rows[0]!.cells).toEqual(['2026-12-04']);
  });
});
