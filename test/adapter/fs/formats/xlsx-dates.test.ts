/** Which number formats are dates, and serials as Excel shows them (values checked against Excel's own calendar). */
import { describe, expect, it } from 'vitest';
import { dateStyles, formatKind, serialText } from '../../../../adapter/fs/formats/xlsx-dates.js';

describe('formatKind', () => {
  it('tells dates, times and both from their codes', () => {
    expect(formatKind('yyyy-mm-dd')).toBe('date');
    expect(formatKind('d/m/yy h:mm')).toBe('datetime');
    expect(formatKind('h:mm AM/PM')).toBe('time');
    expect(formatKind('[h]:mm:ss')).toBe('time');
    expect(formatKind('mmm')).toBe('date');
    expect(formatKind('[$-409]dddd, mmmm d, yyyy')).toBe('date');
  });

  it('is not fooled by literals, colours or number formats', () => {
    expect(formatKind('General')).toBeUndefined();
    expect(formatKind('#,##0.00 "days"')).toBeUndefined();
    expect(formatKind('[Red]0.00;[Blue]-0.00')).toBeUndefined();
    expect(formatKind('0.00\\h')).toBeUndefined();
    expect(formatKind('_("$"* #,##0.00_)')).toBeUndefined();
    expect(formatKind('0.00E+00')).toBeUndefined();
  });
});

describe('serialText', () => {
  it('shows a serial as Excel does, in both date systems', () => {
    expect(serialText('46360', 'date', false)).toBe('2026-12-04');
    expect(serialText('44898', 'date', true)).toBe('2026-12-04');
    expect(serialText('46360.395833333336', 'datetime', false)).toBe('2026-12-04 09:30:00');
    expect(serialText('0.75', 'time', false)).toBe('18:00:00');
    expect(serialText('1.5', 'time', false)).toBe('36:00:00'); // a duration keeps its hours
  });

  it("keeps Excel's 1900 calendar, with Lotus's 29 February", () => {
    expect(serialText('1', 'date', false)).toBe('1900-01-01');
    expect(serialText('59', 'date', false)).toBe('1900-02-28');
    expect(serialText('60', 'date', false)).toBe('1900-02-29');
    expect(serialText('61', 'date', false)).toBe('1900-03-01');
  });

  it('leaves what no date can be as it was stored', () => {
    expect(serialText('-3', 'date', false)).toBe('-3');
    expect(serialText('3000000', 'date', false)).toBe('3000000');
    expect(serialText('#N/A', 'date', false)).toBe('#N/A');
  });
});

describe('dateStyles', () => {
  it('maps the cell formats (not the cell style formats) to their kinds', async () => {
    const xml =
      '<styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/><numFmt numFmtId="165" formatCode="0.0%"/></numFmts>' +
      '<cellStyleXfs><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="21"/></cellXfs></styleSheet>';
    expect([...(await dateStyles(xml))]).toEqual([
      [1, 'date'],
      [2, 'datetime'],
      [4, 'time'],
    ]);
  });
});
