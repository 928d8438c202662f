/** A1 references: "C" <-> 3, "B2:D10" <-> rows and columns (1-based, inclusive). */
import { adapterError } from '../../contract/errors.js';

export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Excel's limits: 1,048,576 rows and 16,384 columns (XFD). */
export const MAX_ROW = 1_048_576;
export const MAX_COLUMN = 16_384;

export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters.toUpperCase()) n = n * 26 + letter.charCodeAt(0) - 64;
  return n;
}

const CELL = /^([A-Za-z]{1,3})(\d{1,7})$/;

/** "B2" -> { row: 2, column: 2 }, or undefined when it is not a cell reference. */
export function parseCell(ref: string): { row: number; column: number } | undefined {
  const match = CELL.exec(ref.replace(/\$/g, ''));
  if (!match) return undefined;
  const column = columnNumber(match[1] ?? '');
  const row = Number(match[2]);
  return row >= 1 && row <= MAX_ROW && column >= 1 && column <= MAX_COLUMN ? { row, column } : undefined;
}

/** "B2:D10" or "B2" (one cell); an error names the form when it is neither. */
export function parseRange(text: string): CellRange {
  const [from = '', to = from] = text.trim().split(':');
  const a = parseCell(from.trim());
  const b = parseCell(to.trim());
  if (!a || !b) {
    throw adapterError('INVALID_INPUT', 'fs.read', `range "${text}" is not an A1 range: pass a cell ("B2") or two corners ("A1:D50"), columns A to XFD`);
  }
  return { top: Math.min(a.row, b.row), left: Math.min(a.column, b.column), bottom: Math.max(a.row, b.row), right: Math.max(a.column, b.column) };
}

export function formatRange(range: CellRange): string {
  return `${columnName(range.left)}${range.top}:${columnName(range.right)}${range.bottom}`;
}
