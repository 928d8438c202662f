import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, openOfficeZip } from '../../../../adapter/fs/formats/office-zip.js';
import { bombDocx, docxFile, pptxFile, xlsxFile } from '../../../helpers/office-files.js';

describe('openOfficeZip', () => {
  it('tells the format by its parts, whatever the file is called', () => {
    expect(openOfficeZip(docxFile([{ text: 'x' }]), 'a.bin').kind).toBe('docx');
    expect(openOfficeZip(xlsxFile({ S: [['x']] }), 'a.docx').kind).toBe('xlsx');
    expect(openOfficeZip(pptxFile([['x']]), 'a').kind).toBe('pptx');
    expect(openOfficeZip(zipSync({ 'notes.txt': new Uint8Array(3) }), 'a.zip').kind).toBeUndefined();
  });

  it('refuses a zip bomb disguised as a DOCX from its directory, inflating nothing, within a time bound', () => {
    const bomb = bombDocx(100 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const heap = process.memoryUsage().heapUsed;
    expect(() => openOfficeZip(bomb, 'bomb.docx')).toThrow(/bomb\.docx is refused: word\/document\.xml inflates to 104857600 bytes .*zip bomb/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a high ratio under the size cap, and too many entries', () => {
    const ratio = zipSync({ 'word/document.xml': [new Uint8Array(40 * 1024 * 1024), { level: 9 }] });
    expect(() => openOfficeZip(ratio, 'r.docx')).toThrow(/inflates \d+ times \(at most 500\)/);
    const many = zipSync(Object.fromEntries(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => [`f${i}`, new Uint8Array(0)])));
    expect(() => openOfficeZip(many, 'm.xlsx')).toThrow(/over 10000 entries/);
  });

  it('reads an entry that lies about its size only as far as it claims (cut, not grown)', () => {
    const text = 'x'.repeat(100_000);
    const data = Buffer.from(zipSync({ 'word/document.xml': new TextEncoder().encode(text) }));
    const central = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    data.writeUInt32LE(100, central + 24); // the central directory's uncompressed size
    data.writeUInt32LE(100, 22); // and the local header's
    const zip = openOfficeZip(data, 'lie.docx');
    expect(zip.sizes.get('word/document.xml')).toBe(100);
    expect(zip.text('word/document.xml')).toBe('x'.repeat(100));
  });

  it('names the format when the container is damaged', () => {
    const cut = xlsxFile({ S: [['x']] }).subarray(0, 300);
    expect(() => openOfficeZip(cut, 'cut.xlsx')).toThrow(/cut\.xlsx is an Office document \(ZIP\) that could not be read .*nothing was returned/);
  });
});
