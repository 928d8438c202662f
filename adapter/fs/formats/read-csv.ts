/**
 * A text file read as a table (CSV, or TSV/semicolon-separated: the first line's most frequent
 * separator), when the caller asks for a range: csv-parse (maintained, no dependencies, quoted
 * fields across lines as RFC 4180 says), over at most MAX_CSV_BYTES of UTF-8 and
 * MAX_SHEET_CELLS cells, then the same bounded block as a workbook's sheet.
 */
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath, ReadAsOptions, XlsxFileRead } from '../../contract/files.js';
import { unreadable } from './office-zip.js';
import { MAX_SHEET_CELLS } from './read-xlsx.js';
import { formatRange } from './sheet-range.js';
import { sliceTable, usedRange, type Cells } from './sheet-table.js';
import { readWhole } from './read-whole.js';

export const MAX_CSV_BYTES = 16 * 1024 * 1024;
const what = 'a CSV file';

export async function readCsv(file: GuardedPath, options: ReadAsOptions): Promise<XlsxFileRead> {
  const { data, totalBytes } = await readWhole(file, MAX_CSV_BYTES, 'CSV');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw adapterError('INVALID_INPUT', 'fs.read', `${file.path} is not UTF-8 text; a range reads a text file as CSV`);
  }
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: separator(text), relax_column_count: true, relax_quotes: false, skip_empty_lines: false }) as string[][];
  } catch (error) {
    throw unreadable(file.path, what, error);
  }
  const cells: Cells = new Map();
  let count = 0;
  records.forEach((record, r) => {
    count += record.length;
    if (count > MAX_SHEET_CELLS) throw adapterError('INVALID_INPUT', 'fs.read', `${file.path} is refused: over ${MAX_SHEET_CELLS} cells; nothing was returned`);
    const line = new Map<number, string>();
    record.forEach((value, c) => value !== '' && line.set(c + 1, value));
    if (line.size) cells.set(r + 1, line);
  });
  const used = usedRange(cells);
  const sheet = path.basename(file.path);
  const sheets = [{ name: sheet, dimension: used ? formatRange(used) : '' }];
  return { kind: 'csv', sheets, sheet, totalBytes, ...sliceTable(cells, used, options.range, options.maxBytes) };
}

/** The first line's most frequent of comma, tab and semicolon (comma when none). */
function separator(text: string): string {
  const first = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  const counts = [',', '\t', ';'].map((s) => [s, first.split(s).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}
