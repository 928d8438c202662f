/**
 * A child's output bytes as the answer carries them: UTF-8 text, or, for output that is not
 * text (NUL bytes, mostly invalid UTF-8), a statement that it is binary with its size and a
 * short base64 preview. Escaping binary into a JSON string would multiply it (2 MiB of NUL
 * bytes became 36 MiB on the wire) and tell the model nothing.
 */
import type { BinaryOutput } from '../contract/processes.js';

export const BINARY_PREVIEW_BYTES = 64;

const lenient = new TextDecoder('utf-8');

export function isBinaryOutput(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  if (bytes.includes(0)) return true;
  // Text in a legacy encoding still decodes mostly; mostly replacement characters is not text.
  const sample = bytes.subarray(0, 64 * 1024);
  const replaced = (lenient.decode(sample).match(/\uFFFD/g) ?? []).length;
  return replaced > sample.length / 8;
}

export function describeOutput(bytes: Uint8Array): { text: string; binary?: BinaryOutput } {
  if (!isBinaryOutput(bytes)) return { text: lenient.decode(bytes) };
  const preview = Buffer.from(bytes.subarray(0, BINARY_PREVIEW_BYTES)).toString('base64');
  return { text: '', binary: { bytes: bytes.length, previewBase64: preview } };
}
