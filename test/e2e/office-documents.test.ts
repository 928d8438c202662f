/**
 * Word, Excel and PowerPoint files and PDF pages as images, through real clients (v2 pinned to
 * 2026-07-28, v1 legacy, and the built CLI over stdio, whose parsers load from outside the
 * bundle): content, ranges and continuations, bombs and secrets refused, the answer budget kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, type TestClient } from '../helpers/clients.js';
import { readerSuite } from '../helpers/reader-suite.js';
import { bombDocx, docxFile, pptxFile, xlsxFile } from '../helpers/office-files.js';
import { textPdf } from '../helpers/pdf-file.js';

const readers = readerSuite((root) => {
  const write = (name: string, data: Uint8Array | string) => fs.writeFileSync(path.join(root, name), data);
  write(
    'memo.docx',
    docxFile([
      { heading: 1, text: 'Board memo' },
      { text: 'Budget approved.' },
      { bullet: 'hire two' },
      {
        table: [
          ['Team', 'Head count'],
          ['Ops', '4'],
        ],
      },
    ]),
  );
  const rows = [['Region', 'Units'], ...Array.from({ length: 2000 }, (_, i) => [`region ${i + 1}`, (i + 1) * 10])];
  write('sales.xlsx', xlsxFile({ Summary: [['Total', 20010000]], Detail: rows }));
  write('orders.csv', 'id,customer,total\n1,"Doe, Jane",12.50\n2,Bob,7\n');
  write('deck.pptx', pptxFile([['Welcome', 'Agenda'], ['Numbers'], ['Thanks']]));
  write('scan.pdf', textPdf([['Invoice 42 total 99 EUR'], ['Page two']]));
  write('bomb.docx', bombDocx(100 * 1024 * 1024));
  fs.mkdirSync(path.join(root, '.ssh'));
  fs.writeFileSync(path.join(root, '.ssh', 'keys.xlsx'), xlsxFile({ Keys: [['private key']] }));
});

describe.each(readers)('%s client', (_kind, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('reads a Word document as Markdown with its heading, list and table', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: 'memo.docx' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('# Board memo\n\nBudget approved.\n\n- hire two\n\n| Team | Head count |\n| --- | --- |\n| Ops | 4 |');
    expect(result.structuredContent).toMatchObject({ startLine: 1, totalLines: 9, docx: { warnings: [] } });
  });

  it('reads a sheet and a range of a workbook, says its sheets, and reads on from where maxBytes cut', async () => {
    const first = await client.callTool({ name: 'fs.read', arguments: { path: 'sales.xlsx' } });
    expect(textOf(first)).toContain('| | A | B |\n|---| --- | --- |\n| 1 | Total | 20010000 |');
    expect(textOf(first)).toContain('sheets: "Summary" A1:B1, "Detail" A1:B2001');
    const range = await client.callTool({ name: 'fs.read', arguments: { path: 'sales.xlsx', sheet: 'Detail', range: 'A10:B11' } });
    expect(textOf(range)).toContain('| 10 | region 9 | 90 |\n| 11 | region 10 | 100 |');
    expect(range.structuredContent?.xlsx).toMatchObject({ sheet: 'Detail', range: 'A10:B11' });
    const cut = await client.callTool({ name: 'fs.read', arguments: { path: 'sales.xlsx', sheet: 'Detail', maxBytes: 2000 } });
    const next = (cut.structuredContent?.xlsx as { nextRange: string }).nextRange;
    expect(next).toMatch(/^A\d+:B2001$/);
    expect(textOf(cut)).toContain(`read on with sheet "Detail" range "${next}"`);
  });

  it('reads a CSV file as a table when asked for a range, and as text without one', async () => {
    const table = await client.callTool({ name: 'fs.read', arguments: { path: 'orders.csv', range: 'A1:C3' } });
    expect(textOf(table)).toContain('| 2 | 1 | Doe, Jane | 12.50 |');
    expect(table.structuredContent?.xlsx).toMatchObject({ sheet: 'orders.csv', range: 'A1:C3' });
    const text = await client.callTool({ name: 'fs.read', arguments: { path: 'orders.csv' } });
    expect(textOf(text)).toBe('id,customer,total\n1,"Doe, Jane",12.50\n2,Bob,7\n');
  });

  it('keeps a large sheet within the answer budget, saying how to get the rest', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: 'sales.xlsx', sheet: 'Detail', maxTokens: 1000 } });
    expect(textOf(result)).toMatch(/elided .* answer[._]more \{"id":"[^"]+"\} reads them/);
    expect(textOf(result)).toContain('| 1 | Region | Units |');
  });

  it('reads slide text in order, and a range of slides', async () => {
    const all = await client.callTool({ name: 'fs.read', arguments: { path: 'deck.pptx' } });
    expect(textOf(all)).toContain('[slide 1 of 3]\nWelcome\nAgenda\n\n[slide 2 of 3]\nNumbers\n\n[slide 3 of 3]\nThanks');
    const one = await client.callTool({ name: 'fs.read', arguments: { path: 'deck.pptx', pages: '2' } });
    expect(one.structuredContent?.pptx).toMatchObject({ totalSlides: 3, firstSlide: 2, lastSlide: 2 });
  });

  it('renders a PDF page as image content sized like a capture', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: 'scan.pdf', as: 'image', pages: '1' } });
    const block = result.content.find((c) => c.type === 'image')!;
    expect(block.mimeType).toBe('image/png');
    const meta = await sharp(Buffer.from(block.data!, 'base64')).metadata();
    expect(meta.width! * meta.height!).toBeLessThanOrEqual(1_150_000);
    expect(result.structuredContent?.image).toMatchObject({ sourceFormat: 'pdf', page: { page: 1, totalPages: 2 }, width: meta.width, height: meta.height });
    expect(textOf(result)).toMatch(/PDF page 1 of 2, 612x792 points .* shown as \d+x\d+ PNG, \d+ tokens/);
  });

  it('refuses a zip bomb disguised as a Word file, and an Office file a secret pattern protects', async () => {
    const bomb = await client.callTool({ name: 'fs.read', arguments: { path: 'bomb.docx' } });
    expect(bomb.isError).toBe(true);
    expect(textOf(bomb)).toMatch(/is refused: word\/document\.xml inflates to 104857600 bytes .*zip bomb/);
    const secret = await client.callTool({ name: 'fs.read', arguments: { path: '.ssh/keys.xlsx' } });
    expect(secret.isError).toBe(true);
    expect(textOf(secret)).toMatch(/secret pattern/);
    expect(textOf(secret)).not.toContain('private key');
  });
});
