/** fs.read's arguments and answers for files that are not text (images, PDF), kept apart from the text path. */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { ImageFileRead, ImageReadOptions, PdfFileRead } from '../../../adapter/contract/files.js';
import { imageTokens, MAX_IMAGE_TOKENS } from '../answer/image-tokens.js';
import type { ContentBlock } from '@modelcontextprotocol/server';
import { rect } from './desktop-schemas.js';
import { DEFAULT_MAX_EDGE, DEFAULT_MAX_PIXELS } from './screen.js';

/** A budget too small for a full-size image (plus its text) gets this long edge instead: 765 tokens at most. */
const SMALL_EDGE = 768;
const edge = z.number().int().min(16).max(16_384);

export const imageInput = {
  region: rect
    .optional()
    .describe('Images: the area to read, in the image’s own pixels (originalWidth x originalHeight); read at full resolution up to the limits'),
  maxWidth: edge.optional().describe(`Images: scale to at most this width (default ${DEFAULT_MAX_EDGE}, less when the answer budget is small)`),
  maxHeight: edge.optional().describe(`Images: scale to at most this height (default ${DEFAULT_MAX_EDGE})`),
  imageFormat: z.enum(['png', 'jpeg']).optional().describe('Images: encoding of the answer; default PNG for PNG and GIF files, JPEG for photos'),
};

export const pagesInput = z
  .string()
  .regex(/^\s*\d+\s*(-\s*\d*\s*)?$/, 'a page ("3") or a range ("2-5", "4-")')
  .optional()
  .describe('PDF pages or PPTX slides to read, "3", "2-5" or "4-" (1-based, inclusive); default from the first as far as maxBytes goes');

/** "2-5" -> {first: 2, last: 5}; "4-" -> {first: 4}. */
export function parsePages(pages: string | undefined): { first: number; last?: number } | undefined {
  if (pages === undefined) return undefined;
  const [from = '', to] = pages.split('-').map((part) => part.trim());
  const first = Number(from);
  const last = to === undefined ? first : to === '' ? undefined : Number(to);
  if (first < 1 || (last !== undefined && last < first))
    throw adapterError('INVALID_INPUT', 'fs.read', `pages "${pages}": pages start at 1 and a range runs forward ("2-5")`);
  return { first, ...(last === undefined ? {} : { last }) };
}

export const pdfOutput = z
  .object({
    totalPages: z.number().int(),
    firstPage: z.number().int(),
    lastPage: z.number().int(),
    nextPage: z.number().int().optional().describe('Set when the pages asked for go on: pass pages: "<nextPage>-" to read on'),
    pagesWithoutText: z.array(z.number().int()).describe('Pages with no text layer (scanned images)'),
  })
  .optional()
  .describe('Set when the file is a PDF: content is its pages’ text, each under a "[page N of M]" line');

export function pdfAnswer(path: string, read: PdfFileRead, askedLast: number | undefined) {
  const { totalPages, firstPage, lastPage, nextPage, pages, totalBytes } = read;
  const blank = pages.filter((p) => p.text === '').map((p) => p.page);
  const content = pages
    .map((p) => (p.text === '' ? `[page ${p.page} of ${totalPages}: no text layer (a scanned page?)]` : `[page ${p.page} of ${totalPages}]\n${p.text}`))
    .join('\n\n');
  const more = nextPage === undefined ? '' : `; cut at maxBytes: read on with pages "${nextPage}-${askedLast ?? ''}"`;
  const text = `${content}\n\n[PDF pages ${firstPage}-${lastPage} of ${totalPages}${more}]`;
  const structured = {
    path,
    content,
    bytes: Buffer.byteLength(content),
    totalBytes,
    truncated: nextPage !== undefined,
    pdf: { totalPages, firstPage, lastPage, ...(nextPage === undefined ? {} : { nextPage }), pagesWithoutText: blank },
  };
  return { structured, text };
}

export const imageOutput = z
  .object({
    sourceFormat: z
      .enum(['png', 'jpeg', 'gif', 'webp', 'heif', 'pdf'])
      .describe('"heif": HEIC or AVIF; "pdf": a page rendered (as: "image"); original* are its size in points'),
    page: z.object({ page: z.number().int(), totalPages: z.number().int() }).optional(),
    format: z.enum(['png', 'jpeg']),
    mimeType: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    originalWidth: z.number().int(),
    originalHeight: z.number().int(),
    area: rect.describe('The area of the original that was read'),
    tokens: z.number().int().describe('What the image costs a model (OpenAI’s rule for detail "high")'),
  })
  .optional()
  .describe('Set when the file is an image: the image itself is the content block before the text');

type ImageArgs = { region?: z.infer<typeof rect>; maxWidth?: number; maxHeight?: number; imageFormat?: 'png' | 'jpeg' };

/** Screen captures' defaults, smaller when the answer budget could not hold a full-size image. */
export function imageOptions(args: ImageArgs, budget: number): ImageReadOptions {
  const fallback = budget >= MAX_IMAGE_TOKENS + 300 ? DEFAULT_MAX_EDGE : SMALL_EDGE;
  return {
    maxWidth: args.maxWidth ?? fallback,
    maxHeight: args.maxHeight ?? fallback,
    maxPixels: args.maxWidth !== undefined || args.maxHeight !== undefined ? Number.MAX_SAFE_INTEGER : DEFAULT_MAX_PIXELS,
    ...(args.region ? { region: args.region } : {}),
    ...(args.imageFormat ? { format: args.imageFormat } : {}),
  };
}

export function imageAnswer(path: string, read: ImageFileRead) {
  const { sourceFormat, page, format, mimeType, width, height, originalWidth, originalHeight, area, totalBytes, data } = read;
  const tokens = imageTokens(width, height);
  const part = area.width === originalWidth && area.height === originalHeight ? '' : ` region ${area.x},${area.y} ${area.width}x${area.height}`;
  const source = page
    ? `PDF page ${page.page} of ${page.totalPages}, ${originalWidth}x${originalHeight} points (file ${totalBytes} bytes);`
    : `${sourceFormat.toUpperCase()} image ${originalWidth}x${originalHeight} (${totalBytes} bytes);`;
  const text =
    `${path}: ${source}${part} shown as ${width}x${height} ` +
    `${format.toUpperCase()}, ${tokens} tokens.` +
    (page ? '' : width < area.width ? ' For detail pass region (in the original’s pixels) or a larger maxWidth/maxHeight.' : '');
  const structured = {
    path,
    content: '',
    bytes: data.byteLength,
    totalBytes,
    truncated: false,
    image: { sourceFormat, ...(page ? { page } : {}), format, mimeType, width, height, originalWidth, originalHeight, area, tokens },
  };
  const content: ContentBlock[] = [{ type: 'image', data: Buffer.from(data).toString('base64'), mimeType }];
  return { structured, text, content };
}
