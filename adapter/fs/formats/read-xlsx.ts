/**
 * One sheet of an Excel workbook as a bounded table. The workbook's few parts (workbook, its
 * relationships, shared strings, the sheet) are read here with fflate and sax (a stream of tags,
 * no tree), both already in the tree: SheetJS left npm (its registry copy is an old release with
 * known advisories) and exceljs brings a dozen dependencies to read cached values. Values are as
 * Excel saved them (a formula's last result; numbers as stored), except that a number whose style
 * shows a date or a time is shown as ISO 8601 (xlsx-dates.ts).
 * Bounds: the container's, a part over MAX_PART_BYTES, more than MAX_SHEET_CELLS cells, and the
 * answer's (sheet-table.ts).
 */
import { adapterError } from '../../contract/errors.js';
import type { ReadAsOptions, SheetInfo, XlsxFileRead } from '../../contract/files.js';
import { parsedOrRefused, type OfficeZip } from './office-zip.js';
import { relationships, scanXml } from './ooxml-xml.js';
import { formatRange, parseCell } from './sheet-range.js';
import { sliceTable, usedRange, type Cells } from './sheet-table.js';
import { dateStyles, serialText, type DateKind } from './xlsx-dates.js';

/** A part is scanned on the server's thread (yielding between chunks): 16 MiB takes about a second. */
export const MAX_PART_BYTES = 16 * 1024 * 1024;
export const MAX_SHEET_CELLS = 2_000_000;
const op = 'fs.read';

export function readXlsx(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<XlsxFileRead> {
  return parsedOrRefused(path, 'xlsx', () => read(zip, path, options, totalBytes));
}

async function read(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<XlsxFileRead> {
  const rels = await relationships(part(zip, 'xl/_rels/workbook.xml.rels', path), 'xl/_rels/workbook.xml.rels', 'xl');
  const listed: Array<{ name: string; target: string }> = [];
  let date1904 = false;
  await scanXml(part(zip, 'xl/workbook.xml', path) ?? '', 'xl/workbook.xml', {
    open(name, attributes) {
      if (name === 'sheet') listed.push({ name: attributes.name ?? '', target: rels.get(attributes['r:id'] ?? '') ?? '' });
      else if (name === 'workbookPr') date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
    },
  });
  if (listed.length === 0) throw new Error('it lists no sheets');
  const index = pickSheet(options.sheet, listed, path);
  const chosen = listed[index]!;
  // The other sheets' dimensions as they declare them; the chosen one's from its cells, below.
  const sheets: SheetInfo[] = listed.map((sheet, i) => ({ name: sheet.name, dimension: i === index ? '' : declaredDimension(zip, sheet.target) }));
  const strings = await sharedStrings(part(zip, 'xl/sharedStrings.xml', path));
  const dates = { styles: await dateStyles(part(zip, 'xl/styles.xml', path)), date1904 };
  const xml = part(zip, chosen.target, path);
  if (xml === undefined) throw new Error(`sheet "${chosen.name}" (${chosen.target || 'no part'}) is missing`);
  const cells = await sheetCells(xml, chosen.target, { strings, dates }, path);
  const used = usedRange(cells);
  sheets[index] = { name: chosen.name, dimension: used ? formatRange(used) : '' };
  return { kind: 'xlsx', sheets, sheet: chosen.name, totalBytes, ...sliceTable(cells, used, options.range, options.maxBytes) };
}

function part(zip: OfficeZip, name: string, path: string): string | undefined {
  const size = zip.sizes.get(name);
  if (size !== undefined && size > MAX_PART_BYTES) {
    throw adapterError(
      'INVALID_INPUT',
      op,
      `${path} is refused: its part ${name} is ${size} bytes (at most ${MAX_PART_BYTES / (1024 * 1024)} MiB); nothing was parsed`,
    );
  }
  return zip.text(name);
}

/** What a sheet says it spans (its <dimension>), without parsing its cells. */
function declaredDimension(zip: OfficeZip, target: string): string {
  if ((zip.sizes.get(target) ?? 0) > MAX_PART_BYTES) return '';
  const head = zip.text(target)?.slice(0, 4096) ?? '';
  const ref = /<(?:\w+:)?dimension\s+ref="([^"]+)"/.exec(head)?.[1] ?? '';
  return ref.includes(':') || ref === '' ? ref : `${ref}:${ref}`;
}

function pickSheet(sheet: string | undefined, listed: Array<{ name: string }>, path: string): number {
  if (sheet === undefined) return 0;
  const byName = listed.findIndex((s) => s.name === sheet);
  if (byName !== -1) return byName;
  const n = /^\d+$/.test(sheet) ? Number(sheet) : 0;
  if (n >= 1 && n <= listed.length) return n - 1;
  const names = listed.map((s) => JSON.stringify(s.name)).join(', ');
  throw adapterError('INVALID_INPUT', op, `${path} has no sheet ${JSON.stringify(sheet)}; its sheets are ${names} (pass a name or a number from 1)`);
}

/** Each string item's text: its runs' <t>, not its phonetic guides (<rPh>). */
async function sharedStrings(xml: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (xml === undefined) return strings;
  let current = '';
  let inText = false;
  let phonetic = 0;
  await scanXml(xml, 'xl/sharedStrings.xml', {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = phonetic === 0;
    },
    close(name) {
      if (name === 'si') strings.push(current);
      else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
    text(text) {
      if (inText) current += text;
    },
  });
  return strings;
}

/** What turns a cell's stored value into its text: the shared strings, and which styles are dates. */
interface CellContext {
  strings: string[];
  dates: { styles: Map<number, DateKind>; date1904: boolean };
}

/** Each cell's value as text: shared and inline strings, booleans as TRUE/FALSE, dates as ISO 8601, the rest as saved (<v>). */
async function sheetCells(xml: string, part: string, context: CellContext, path: string): Promise<Cells> {
  const rows: Cells = new Map();
  let count = 0;
  let cell: { ref: string; type: string | undefined; style: number; value: string } | undefined;
  let collecting = false;
  await scanXml(xml, part, {
    open(name, attributes) {
      if (name === 'c') {
        if (++count > MAX_SHEET_CELLS) {
          throw adapterError('INVALID_INPUT', op, `${path} is refused: a sheet has over ${MAX_SHEET_CELLS} cells; nothing was returned`);
        }
        cell = { ref: attributes.r ?? '', type: attributes.t, style: Number(attributes.s ?? 0), value: '' };
      } else if (cell && (name === 'v' || (name === 't' && cell.type === 'inlineStr'))) collecting = true;
    },
    close(name) {
      if (name === 'v' || name === 't') collecting = false;
      if (name !== 'c' || !cell) return;
      const at = parseCell(cell.ref);
      const value = cellValue(cell, context);
      cell = undefined;
      if (!at || value === '') return;
      let line = rows.get(at.row);
      if (!line) rows.set(at.row, (line = new Map()));
      line.set(at.column, value);
    },
    text(text) {
      if (collecting && cell) cell.value += text;
    },
  });
  return rows;
}

function cellValue({ type, style, value }: { type: string | undefined; style: number; value: string }, { strings, dates }: CellContext): string {
  if (type === 's') return strings[Number(value)] ?? '';
  if (type === 'b') return value === '1' ? 'TRUE' : value === '0' ? 'FALSE' : value;
  const kind = type === undefined || type === 'n' ? dates.styles.get(style) : undefined;
  return kind ? serialText(value, kind, dates.date1904) : value;
}
