/** fs.read's arguments and answer for files that are not text (images today), kept apart from the text path. */
import * as z from 'zod';
import type { ImageFileRead, ImageReadOptions } from '../../../adapter/contract/files.js';
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

export const imageOutput = z
  .object({
    sourceFormat: z.enum(['png', 'jpeg', 'gif', 'webp']),
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
  const { sourceFormat, format, mimeType, width, height, originalWidth, originalHeight, area, totalBytes, data } = read;
  const tokens = imageTokens(width, height);
  const part = area.width === originalWidth && area.height === originalHeight ? '' : ` region ${area.x},${area.y} ${area.width}x${area.height}`;
  const text =
    `${path}: ${sourceFormat.toUpperCase()} image ${originalWidth}x${originalHeight} (${totalBytes} bytes);${part} shown as ${width}x${height} ` +
    `${format.toUpperCase()}, ${tokens} tokens.` +
    (width < area.width ? ' For detail pass region (in the original’s pixels) or a larger maxWidth/maxHeight.' : '');
  const structured = {
    path,
    content: '',
    bytes: data.byteLength,
    totalBytes,
    truncated: false,
    image: { sourceFormat, format, mimeType, width, height, originalWidth, originalHeight, area, tokens },
  };
  const content: ContentBlock[] = [{ type: 'image', data: Buffer.from(data).toString('base64'), mimeType }];
  return { structured, text, content };
}
