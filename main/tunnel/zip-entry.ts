/**
 * Reads one file out of a ZIP archive in memory (the tunnel client's release archive). Only
 * what release archives use: stored or deflated entries, no encryption, no ZIP64. The archive
 * has already been checked against the release's SHA-256 before this runs; the CRC and the size
 * limits still guard against a broken file.
 */
import zlib from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export class ZipError extends Error {
  override name = 'ZipError';
}

export function readZipEntry(zip: Buffer, wanted: string, maxBytes = 512 * 1024 * 1024): Buffer {
  const end = findEndOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw new ZipError('the archive is damaged (central directory)');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    names.push(name);
    at += 46 + nameLength + extraLength + commentLength;
    if (name !== wanted) continue;
    if (flags & 1) throw new ZipError(`${name} is encrypted in the archive`);
    if (compressed === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw new ZipError('ZIP64 archives are not supported');
    if (size > maxBytes) throw new ZipError(`${name} is larger than ${maxBytes} bytes`);
    const data = entryData(zip, localOffset, compressed);
    let content: Buffer;
    if (method === 0) content = Buffer.from(data);
    else if (method === 8) content = zlib.inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
    else throw new ZipError(`${name} uses compression method ${method}, which is not supported`);
    if (content.length !== size || zlib.crc32(content) !== crc) throw new ZipError(`${name} is damaged in the archive (size or CRC mismatch)`);
    return content;
  }
  throw new ZipError(`the archive has no ${wanted} (it has: ${names.slice(0, 12).join(', ') || 'nothing'})`);
}

function findEndOfCentralDirectory(zip: Buffer): number {
  if (zip.length < 22) throw new ZipError('not a ZIP archive');
  const earliest = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= earliest; at--) if (zip.readUInt32LE(at) === EOCD) return at;
  throw new ZipError('not a ZIP archive');
}

function entryData(zip: Buffer, offset: number, compressed: number): Buffer {
  if (offset + 30 > zip.length || zip.readUInt32LE(offset) !== LOCAL) throw new ZipError('the archive is damaged (local header)');
  const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
  if (start + compressed > zip.length) throw new ZipError('the archive is truncated');
  return zip.subarray(start, start + compressed);
}
