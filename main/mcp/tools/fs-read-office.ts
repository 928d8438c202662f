/** fs.read's arguments and answers for Office files (DOCX, XLSX, PPTX) and a PDF page as an image. */
import * as z from 'zod';
import type { DocxFileRead, PptxFileRead, XlsxFileRead } from '../../../adapter/contract/files.js';

export const officeInput = {
  sheet: z.string().max(200).optional().describe('XLSX: the sheet to read, by name or number (from 1); default the first'),
  range: z
    .string()
    .max(40)
    .optional()
    .describe(
      'XLSX: the cells to read, an A1 range ("A1:D50") or one cell; default the sheet’s used range, as far as maxBytes, 50 columns and 5,000 cells go. On a text file: read it as CSV (comma, tab or semicolon), a table like a sheet',
    ),
  as: z
    .enum(['text', 'image'])
    .optional()
    .describe('PDF: "image" renders the first page of pages (default page 1) as a PNG image sized like screen.capture; default "text"'),
};

export const docxOutput = z
  .object({ nextLine: z.number().int().optional().describe('Set when lines follow: pass it as startLine'), warnings: z.array(z.string()) })
  .optional()
  .describe('Set when the file is a Word document: content is its text as Markdown (headings, lists, tables)');

export function docxAnswer(path: string, read: DocxFileRead) {
  const { content, startLine, endLine, totalLines, nextLine, warnings, totalBytes } = read;
  const more = nextLine === undefined ? '' : `; read on with startLine ${nextLine}`;
  const text = `${content}\n\n[Word document, lines ${startLine}-${endLine} of ${totalLines}${more}]`;
  const structured = {
    path,
    content,
    bytes: Buffer.byteLength(content),
    totalBytes,
    truncated: nextLine !== undefined || startLine > 1,
    startLine,
    endLine,
    totalLines,
    docx: { ...(nextLine === undefined ? {} : { nextLine }), warnings },
  };
  return { structured, text };
}

export const xlsxOutput = z
  .object({
    sheet: z.string(),
    sheets: z.array(z.object({ name: z.string(), dimension: z.string().describe('The A1 range the sheet’s cells span, "" when empty') })),
    range: z.string().describe('The A1 range shown'),
    nextRange: z.string().optional().describe('Set when the range asked for goes on: pass it as range (with sheet) to read on'),
    moreColumns: z.string().optional().describe('Set when the range asked for is wider than 50 columns: the columns left out, as a range'),
  })
  .optional()
  .describe(
    'Set when the file is an Excel workbook (or a CSV file read with range): content is a Markdown table of the range, rows numbered and columns lettered',
  );

export function xlsxAnswer(path: string, read: XlsxFileRead) {
  const { kind, sheets, sheet, range, rows, columns, nextRange, moreColumns, totalBytes } = read;
  const cell = (value: string) => value.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const table = rows.length
    ? [`| | ${columns.join(' | ')} |`, `|---|${' --- |'.repeat(columns.length)}`, ...rows.map((r) => `| ${r.row} | ${r.cells.map(cell).join(' | ')} |`)].join(
        '\n',
      )
    : '(no cells with values in this range)';
  const list = sheets.map((s) => `"${s.name}"${s.dimension ? ` ${s.dimension}` : ' (empty)'}`).join(', ');
  const on = (next: string) => (kind === 'csv' ? `range "${next}"` : `sheet "${sheet}" range "${next}"`);
  const more = (nextRange === undefined ? '' : `; read on with ${on(nextRange)}`) + (moreColumns === undefined ? '' : `; columns left out: ${on(moreColumns)}`);
  const where = kind === 'csv' ? `CSV ${sheet} ${sheets[0]?.dimension || '(empty)'}` : `sheets: ${list}`;
  const text = `${table}\n\n[${kind === 'csv' ? 'table' : `sheet "${sheet}"`} ${range || '(empty)'}${more}; ${where}]`;
  const structured = {
    path,
    content: table,
    bytes: Buffer.byteLength(table),
    totalBytes,
    truncated: nextRange !== undefined || moreColumns !== undefined,
    xlsx: { sheet, sheets, range, ...(nextRange === undefined ? {} : { nextRange }), ...(moreColumns === undefined ? {} : { moreColumns }) },
  };
  return { structured, text };
}

export const pptxOutput = z
  .object({
    totalSlides: z.number().int(),
    firstSlide: z.number().int(),
    lastSlide: z.number().int(),
    nextSlide: z.number().int().optional().describe('Set when slides follow: pass pages: "<nextSlide>-" to read on'),
  })
  .optional()
  .describe('Set when the file is a presentation: content is its slides’ text, each under a "[slide N of M]" line');

export function pptxAnswer(path: string, read: PptxFileRead, askedLast: number | undefined) {
  const { totalSlides, slides, firstSlide, lastSlide, nextSlide, totalBytes } = read;
  const content = slides.map((s) => `[slide ${s.slide} of ${totalSlides}]\n${s.text || '(no text)'}`).join('\n\n');
  const more = nextSlide === undefined ? '' : `; cut at maxBytes: read on with pages "${nextSlide}-${askedLast ?? ''}"`;
  const text = `${content}\n\n[slides ${firstSlide}-${lastSlide} of ${totalSlides}${more}]`;
  const structured = {
    path,
    content,
    bytes: Buffer.byteLength(content),
    totalBytes,
    truncated: nextSlide !== undefined,
    pptx: { totalSlides, firstSlide, lastSlide, ...(nextSlide === undefined ? {} : { nextSlide }) },
  };
  return { structured, text };
}
