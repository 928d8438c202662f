/**
 * Excel stores a date as a number (days since its epoch) and says it is a date only through the
 * cell's style: the number format of its `cellXfs` entry, a built-in id or a format code. Which
 * styles are dates, times or both is read once from styles.xml; a number under one of them is
 * shown as ISO 8601 (2026-12-04, 2026-12-04 09:30:00, 09:30:00), as a person sees it in Excel.
 */
import { scanXml } from './ooxml-xml.js';

export type DateKind = 'date' | 'datetime' | 'time';

/** The built-in number formats that are dates or times (ECMA-376 18.8.30, with the East Asian ones). */
function builtIn(id: number): DateKind | undefined {
  if ((id >= 14 && id <= 17) || (id >= 27 && id <= 36) || (id >= 50 && id <= 58)) return 'date';
  if ((id >= 18 && id <= 21) || (id >= 45 && id <= 47)) return 'time';
  return id === 22 ? 'datetime' : undefined;
}

/** What a format code shows, once its literals ("text", \x, _x, *x) and [colour]/[h] brackets are set aside. */
export function formatKind(code: string): DateKind | undefined {
  const bare = code
    .split(';')[0]!
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
    .replace(/\[[^\]]*\]/g, '');
  const elapsed = /\[(h+|m+|s+)\]/i.test(code);
  const date = /[dy]/i.test(bare);
  const time = /[hs]/i.test(bare) || elapsed || /AM\/PM/i.test(bare);
  if (date && time) return 'datetime';
  if (date) return 'date';
  if (time) return 'time';
  // Only m: months (mmm yyyy without the y is still a month name).
  return /m/i.test(bare) && !/[0#?]/.test(bare) ? 'date' : undefined;
}

/** The kind of each style index (a cell's `s`) that shows a date or a time. */
export async function dateStyles(xml: string | undefined): Promise<Map<number, DateKind>> {
  const kinds = new Map<number, DateKind>();
  if (xml === undefined) return kinds;
  const custom = new Map<number, string>();
  let inCellXfs = false;
  let index = 0;
  await scanXml(xml, 'xl/styles.xml', {
    open(name, attributes) {
      if (name === 'numFmt') custom.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(attributes.numFmtId ?? 0);
        const code = custom.get(id);
        const kind = code === undefined ? builtIn(id) : formatKind(code);
        if (kind) kinds.set(index, kind);
        index++;
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return kinds;
}

const DAY_SECONDS = 86_400;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** A stored serial as Excel shows it; the value as stored when it is no date Excel could show. */
export function serialText(value: string, kind: DateKind, date1904: boolean): string {
  const serial = Number(value);
  if (value.trim() === '' || !Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return value;
  // A time of a day or more is a duration ([h]:mm:ss): its hours are kept.
  if (kind === 'time') return clock(Math.round(serial * DAY_SECONDS), serial < 1);
  // Excel's 1900 calendar keeps Lotus's 29 February 1900 (serial 60): the days before it are one off.
  const lotusDay = !date1904 && Math.floor(serial) === 60;
  const days = !date1904 && serial < 60 ? serial + 1 : serial;
  const iso = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(days * DAY_SECONDS) * 1000).toISOString();
  const day = lotusDay ? '1900-02-29' : iso.slice(0, 10);
  return kind === 'date' ? day : `${day} ${iso.slice(11, 19)}`;
}

function clock(seconds: number, ofDay: boolean): string {
  const hours = Math.floor(seconds / 3600);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(ofDay ? hours % 24 : hours)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}
