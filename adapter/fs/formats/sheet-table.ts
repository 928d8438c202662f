/**
 * A bounded block of a sheet's cells (a workbook's or a CSV file's): the range asked for (default
 * the used range), at most MAX_COLUMNS columns, MAX_CELLS cells and maxBytes, with the rest of
 * the rows (`nextRange`) and of the columns (`moreColumns`) to read on.
 */
import type { XlsxFileRead } from '../../contract/files.js';
import { columnName, formatRange, parseRange, type CellRange } from './sheet-range.js';

/** Cells in one answer, and columns (a wider range is read in column blocks). */
export const MAX_CELLS = 5_000;
export const MAX_COLUMNS = 50;

/** Row -> column -> the cell's value as text (empty cells absent). */
export type Cells = Map<number, Map<number, string>>;

export type TableBlock = Pick<XlsxFileRead, 'range' | 'rows' | 'columns' | 'nextRange' | 'moreColumns'>;

export function usedRange(cells: Cells): CellRange | undefined {
  let range: CellRange | undefined;
  for (const [row, line] of cells) {
    for (const column of line.keys()) {
      range = range
        ? { top: Math.min(range.top, row), bottom: Math.max(range.bottom, row), left: Math.min(range.left, column), right: Math.max(range.right, column) }
        : { top: row, bottom: row, left: column, right: column };
    }
  }
  return range;
}

export function sliceTable(cells: Cells, used: CellRange | undefined, rangeText: string | undefined, maxBytes: number): TableBlock {
  const asked = rangeText ? parseRange(rangeText) : used;
  if (!asked) return { range: '', rows: [], columns: [] };
  const right = Math.min(asked.right, asked.left + MAX_COLUMNS - 1);
  const columns = Array.from({ length: right - asked.left + 1 }, (_, i) => columnName(asked.left + i));
  const rows: TableBlock['rows'] = [];
  let bytes = 0;
  let row = asked.top;
  const lastRow = Math.min(asked.bottom, used?.bottom ?? asked.top);
  for (; row <= lastRow; row++) {
    const line = cells.get(row);
    const values = columns.map((_, i) => line?.get(asked.left + i) ?? '');
    const size = values.reduce((sum, value) => sum + Buffer.byteLength(value) + 3, 0);
    if (rows.length > 0 && (bytes + size > maxBytes || (rows.length + 1) * columns.length > MAX_CELLS)) break;
    bytes += size;
    rows.push({ row, cells: values });
  }
  const shown: CellRange = { top: asked.top, left: asked.left, bottom: Math.max(asked.top, row - 1), right };
  return {
    range: formatRange(shown),
    rows,
    columns,
    ...(row <= lastRow ? { nextRange: formatRange({ ...asked, top: row, right }) } : {}),
    ...(right < asked.right ? { moreColumns: formatRange({ ...asked, left: right + 1 }) } : {}),
  };
}
