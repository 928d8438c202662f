/**
 * Clipboard content as clipboard.read returns it, bounded the same way by every backend: text
 * beyond the caller's bytes is cut at a character boundary (and says so); an image beyond them
 * is refused, since half a PNG is no image.
 */
import type { ClipboardContent, ClipboardReadOptions } from '../contract/desktop.js';
import { adapterError } from '../contract/errors.js';

export const EMPTY_CLIPBOARD = (formats: string[]): ClipboardContent => ({ kind: 'empty', bytes: 0, truncated: false, formats });

/** `text` cut to at most `maxBytes` of UTF-8 (whole characters). */
export function clipboardText(text: string, maxBytes: number, formats: string[]): ClipboardContent {
  if (text === '') return EMPTY_CLIPBOARD(formats);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { kind: 'text', text, bytes, truncated: false, formats };
  // decoding a cut buffer drops a split last character as U+FFFD: cut that too
  const cut = Buffer.from(text, 'utf8')
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return { kind: 'text', text: cut, bytes, truncated: true, formats };
}

/** `total`: the image's whole size, when only part of it was read. */
export function clipboardImage(png: Buffer, maxBytes: number, formats: string[], operation: string, total = png.length): ClipboardContent {
  if (total > maxBytes) {
    throw adapterError(
      'OUTPUT_LIMIT',
      operation,
      `the clipboard holds a ${total}-byte PNG image, more than maxBytes (${maxBytes}); ask for more, or for prefer: "text"`,
    );
  }
  return { kind: 'image', image: { data: png, mimeType: 'image/png' }, bytes: png.length, truncated: false, formats };
}

/** What the clipboard scripts print (win32-clipboard.ts, mac-clipboard.ts): the formats, and text and a PNG as base64. */
export interface ScriptClipboard {
  formats?: string[] | string;
  text64?: string;
  png64?: string;
}

/** A script's reading, bounded like every backend's: the preferred kind when both are there. */
export function fromScriptClipboard(out: ScriptClipboard, options: ClipboardReadOptions, operation: string): ClipboardContent {
  const formats = Array.isArray(out.formats) ? out.formats : out.formats ? [out.formats] : [];
  const text = out.text64 === undefined ? '' : Buffer.from(out.text64, 'base64').toString('utf8');
  const png = out.png64 ? Buffer.from(out.png64, 'base64') : undefined;
  if (png && (options.prefer === 'image' || text === '')) return clipboardImage(png, options.maxBytes, formats, operation);
  return clipboardText(text, options.maxBytes, formats);
}
