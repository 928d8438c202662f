/** Small PDFs written by hand from the PDF 1.4 reference (objects, xref, trailer): text pages, and a page whose stream is given. */
import zlib from 'node:zlib';

/** One page per entry, each line drawn with Helvetica (plain ASCII without parentheses or backslashes). */
export function textPdf(pages: readonly string[][]): Buffer {
  return pdfOf(pages.map((lines) => Buffer.from(`BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${l}) Tj T*`).join(' ')} ET`, 'latin1')));
}

/** One page whose content stream is `inflated` bytes of spaces, Flate-compressed: a stream bomb when large. */
export function bombPdf(inflated: number): Buffer {
  return pdfOf([zlib.deflateSync(Buffer.alloc(inflated, 0x20), { level: 9 })], '/Filter /FlateDecode ');
}

function pdfOf(streams: readonly Buffer[], filter = ''): Buffer {
  const objects: Buffer[] = [];
  const kids = streams.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'));
  objects.push(Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${streams.length} >>`));
  objects.push(Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'));
  streams.forEach((stream, i) => {
    objects.push(Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`));
    objects.push(Buffer.concat([Buffer.from(`<< ${filter}/Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream')]));
  });
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets = objects.map((body, i) => {
    const at = length;
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
    return at;
  });
  const xref = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
