/**
 * One sheet of an Excel workbook as a bounded table. The workbook's few parts (workbook, its
 * relationships, shared strings, the sheet) are read here with fflate and fast-xml-parser, both
 * already in the tree: SheetJS left npm (its registry copy is an old release with known
 * advisories) and exceljs brings a dozen dependencies and a streaming writer to read cells.
 * Values are the cells' cached values as Excel saved them (a formula's last result; numbers as
 * stored, dates as their serial number). Bounds: the container's, a part over MAX_PART_BYTES, more than MAX_SHEET_CELLS cells, and the answer's bounds (sheet-table.ts).
 */
import { adapterError } from '../../contract/errors.js';
import type { ReadAsOptions, SheetInfo, XlsxFileRead } from '../../contract/files.js';
import { parsedOrRefused, type OfficeZip } from './office-zip.js';
import { attribute, children, findAll, localName, parseXml, relationships, textOf, type XNode } from './ooxml-xml.js';
import { formatRange, parseCell } from './sheet-range.js';
import { sliceTable, usedRange, type Cells } from './sheet-table.js';

/** A part is parsed on the server's thread: 16 MiB of sheet XML takes a few seconds. */
export const MAX_PART_BYTES = 16 * 1024 * 1024;
export const MAX_SHEET_CELLS = 2_000_000;
const op = 'fs.read';

export function readXlsx(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<XlsxFileRead> {
  return parsedOrRefused(path, 'xlsx', () => read(zip, path, options, totalBytes));
}

function read(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): XlsxFileRead {
  const rels = relationships(part(zip, 'xl/_rels/workbook.xml.rels', path), 'xl/_rels/workbook.xml.rels', 'xl');
  const listed = findAll(parseXml(part(zip, 'xl/workbook.xml', path) ?? '', 'xl/workbook.xml'), 'sheet').map((node) => ({
    name: attribute(node, 'name') ?? '',
    target: rels.get(attribute(node, 'r:id') ?? '') ?? '',
  }));
  if (listed.length === 0) throw new Error('it lists no sheets');
  const sheets: SheetInfo[] = listed.map((sheet) => ({ name: sheet.name, dimension: declaredDimension(zip, sheet.target) }));
  const index = pickSheet(options.sheet, listed, path);
  const chosen = listed[index]!;
  const strings = sharedStrings(part(zip, 'xl/sharedStrings.xml', path));
  const xml = part(zip, chosen.target, path);
  if (xml === undefined) throw new Error(`sheet "${chosen.name}" (${chosen.target || 'no part'}) is missing`);
  const cells = sheetCells(parseXml(xml, chosen.target), strings, path);
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

function sharedStrings(xml: string | undefined): string[] {
  if (xml === undefined) return [];
  // A string item's text is its runs' <t>, not its phonetic guides (<rPh>).
  return findAll(parseXml(xml, 'xl/sharedStrings.xml'), 'si').map((si) =>
    findAll(
      children(si).filter((node) => localName(node) !== 'rPh'),
      't',
    )
      .map(textOf)
      .join(''),
  );
}

function sheetCells(sheet: XNode[], strings: string[], path: string): Cells {
  const rows: Cells = new Map();
  let count = 0;
  for (const row of findAll(sheet, 'row')) {
    for (const cell of children(row)) {
      if (localName(cell) !== 'c') continue;
      if (++count > MAX_SHEET_CELLS) {
        throw adapterError('INVALID_INPUT', op, `${path} is refused: a sheet has over ${MAX_SHEET_CELLS} cells; nothing was returned`);
      }
      const at = parseCell(attribute(cell, 'r') ?? '');
      const value = cellValue(cell, strings);
      if (!at || value === '') continue;
      let line = rows.get(at.row);
      if (!line) rows.set(at.row, (line = new Map()));
      line.set(at.column, value);
    }
  }
  return rows;
}

function cellValue(cell: XNode, strings: string[]): string {
  const type = attribute(cell, 't');
  const part = (name: string) => children(cell).find((node) => localName(node) === name);
  if (type === 'inlineStr') {
    const inline = part('is');
    return inline ? findAll(children(inline), 't').map(textOf).join('') : '';
  }
  const raw = part('v');
  const value = raw ? textOf(raw) : '';
  if (type === 's') return strings[Number(value)] ?? '';
  if (type === 'b') return value === '1' ? 'TRUE' : value === '0' ? 'FALSE' : value;
  return value;
}
