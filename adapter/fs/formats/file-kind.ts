/** What a file is, by its first bytes (never by its name's extension). */

export type FileKind = 'text' | 'png' | 'jpeg' | 'gif' | 'webp' | 'heif' | 'pdf' | 'zip';

/** Bytes the sniff needs from the start of a file. */
export const SNIFF_BYTES = 16;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif']);

export function fileKind(head: Uint8Array): FileKind {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const ascii = (from: number, to: number) => (b.length >= to ? b.toString('latin1', from, to) : '');
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(8, 12))) return 'heif';
  if (ascii(0, 5) === '%PDF-') return 'pdf';
  if (ascii(0, 4) === 'PK\x03\x04') return 'zip';
  return 'text';
}
