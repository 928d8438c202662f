/** What a downloaded body is, by its first bytes: the file formats' sniff plus a few download kinds. */
import { fileKind } from '../fs/formats/file-kind.js';
import type { BodyKind } from '../contract/net.js';

export function sniffBody(data: Uint8Array): BodyKind {
  const kind = fileKind(data.subarray(0, 16));
  if (kind !== 'text') return kind;
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 512));
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x7f454c46) return 'elf';
  if (head.includes(0)) return 'binary';
  if (/^\s*<(!doctype html|html)/i.test(head.toString('latin1'))) return 'html';
  // A character cut at the slice's end is not a sign of binary.
  const decoded = new TextDecoder('utf-8').decode(head);
  return decoded.slice(0, data.byteLength > head.length ? -2 : undefined).includes('\uFFFD') ? 'binary' : 'text';
}
