/**
 * clipboard.write and clipboard.read: text or a PNG image, bounded both ways. Writing is input
 * (it replaces what the owner copied); reading is a grant of its own (desktop.clipboardRead),
 * since the clipboard is where passwords are copied to.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import { defineTool, DESTRUCTIVE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';

/** Text a model may put on the clipboard or read from it in one call. */
export const MAX_CLIPBOARD_TEXT_BYTES = 1024 * 1024;
/** PNG bytes (base64 is a third more): an X server takes about 256 KiB in one request, and the answer must fit a model's context. */
export const MAX_CLIPBOARD_IMAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_READ_BYTES = 64 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const clipboardWrite = defineTool({
  name: 'clipboard.write',
  title: 'Put text or an image on the clipboard',
  description:
    `Replaces the clipboard content with text (at most ${MAX_CLIPBOARD_TEXT_BYTES / 1024} KiB) or a PNG image (imagePng, base64), so the owner ` +
    'or an app can paste it (input.key "ctrl+v"). Give exactly one. The content stays until something else is copied.',
  input: z.object({
    text: z.string().max(MAX_CLIPBOARD_TEXT_BYTES).optional(),
    imagePng: z
      .string()
      .max(Math.ceil((MAX_CLIPBOARD_IMAGE_BYTES * 4) / 3) + 4)
      .optional()
      .describe('A PNG image, base64'),
  }),
  output: z.object({ kind: z.enum(['text', 'image']), bytes: z.number().int() }),
  annotations: DESTRUCTIVE,
  grant: GRANT.input,
  // never the content: it can be a password
  target: (args) => ({ kind: args.text !== undefined ? 'text' : 'image' }),
  async run(args, { adapter }) {
    if ((args.text === undefined) === (args.imagePng === undefined))
      throw adapterError('INVALID_INPUT', 'clipboard.write', 'give exactly one of text and imagePng');
    if (args.text !== undefined && Buffer.byteLength(args.text, 'utf8') > MAX_CLIPBOARD_TEXT_BYTES) {
      throw adapterError('INVALID_INPUT', 'clipboard.write', `the text is more than ${MAX_CLIPBOARD_TEXT_BYTES} bytes of UTF-8`);
    }
    const content = args.text !== undefined ? { text: args.text } : { image: pngFrom(args.imagePng!) };
    const result = await adapter.desktop.writeClipboard(content);
    return { structured: result, text: `The clipboard now holds ${result.kind === 'text' ? 'text' : 'a PNG image'} (${result.bytes} bytes).` };
  },
});

function pngFrom(base64: string): Buffer {
  const data = Buffer.from(base64, 'base64');
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) throw adapterError('INVALID_INPUT', 'clipboard.write', 'imagePng is not a base64 PNG image');
  if (data.length > MAX_CLIPBOARD_IMAGE_BYTES)
    throw adapterError('INVALID_INPUT', 'clipboard.write', `the image is more than ${MAX_CLIPBOARD_IMAGE_BYTES} bytes`);
  return data;
}

export const clipboardRead = defineTool({
  name: 'clipboard.read',
  title: 'Read the clipboard',
  description:
    `Returns what the clipboard holds: text (cut to maxBytes, default ${DEFAULT_READ_BYTES / 1024} KiB, and marked truncated) or a PNG image ` +
    '(as an image; refused when larger than maxBytes). prefer chooses when both are offered; formats lists what the clipboard offered.',
  input: z.object({
    prefer: z.enum(['text', 'image']).default('text'),
    maxBytes: z.number().int().min(1).max(MAX_CLIPBOARD_IMAGE_BYTES).default(DEFAULT_READ_BYTES),
  }),
  output: z.object({
    kind: z.enum(['text', 'image', 'empty']),
    text: z.string().optional(),
    mimeType: z.string().optional(),
    bytes: z.number().int().describe('The size of the whole content'),
    truncated: z.boolean(),
    formats: z.array(z.string()),
  }),
  payload: ['text'],
  annotations: READ_ONLY,
  grant: GRANT.clipboardRead,
  target: (args) => ({ prefer: args.prefer, maxBytes: args.maxBytes }),
  async run(args, { adapter }) {
    const maxBytes = args.prefer === 'text' ? Math.min(args.maxBytes, MAX_CLIPBOARD_TEXT_BYTES) : args.maxBytes;
    const read = await adapter.desktop.readClipboard({ prefer: args.prefer, maxBytes });
    const { kind, bytes, truncated, formats } = read;
    if (read.image) {
      const { data, mimeType } = read.image;
      return {
        structured: { kind, mimeType, bytes, truncated, formats },
        text: `The clipboard holds a PNG image (${bytes} bytes).`,
        content: [{ type: 'image', data: data.toString('base64'), mimeType }],
      };
    }
    if (kind === 'empty')
      return {
        structured: { kind, bytes, truncated, formats },
        text: `The clipboard holds no text or image${formats.length ? ` (it offers ${formats.join(', ')})` : ''}.`,
      };
    const cut = truncated ? ` (cut to ${Buffer.byteLength(read.text ?? '', 'utf8')} of ${bytes} bytes: ask with a larger maxBytes for more)` : '';
    return { structured: { kind, text: read.text, bytes, truncated, formats }, text: `Clipboard text${cut}:\n${read.text ?? ''}` };
  },
});

export const clipboardTools = [clipboardWrite, clipboardRead];
