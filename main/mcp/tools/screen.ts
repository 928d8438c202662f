/** screen.capture: the desktop, a display or a region, downscaled for models, as an image block. */
import * as z from 'zod';
import type { Config } from '../../config/schema.js';
import { defineTool, READ_ONLY } from '../tool.js';

/** Long edge of the default image: enough to read UI text, small enough for a model's context. */
export const DEFAULT_MAX_EDGE = 1280;
const DEFAULT_JPEG_QUALITY = 80;

const enabled = (config: Readonly<Config>) => config.desktop.hostDisplayAccess && config.desktop.screen;

const rect = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
const edge = z.number().int().min(16).max(16_384);

export const screenCapture = defineTool({
  name: 'screen.capture',
  title: 'Capture the screen',
  description:
    `Takes a screenshot of the whole desktop, one display, or a region, downscaled to fit maxWidth x maxHeight (default ${DEFAULT_MAX_EDGE} on the ` +
    'long edge, never upscaled), as PNG (default) or JPEG. Returns the image plus its size, the original size and the scale. To act on what you see, ' +
    'pass the image width and height as `space` to input.move / input.click (whole-desktop captures), or convert: screen x = area.x + imageX / scale.',
  input: z.object({
    region: rect.optional().describe('Area in physical pixels; relative to the display when display is given, else to the whole desktop'),
    display: z.number().int().min(0).optional().describe('Monitor index (0 = first); omit for the whole desktop'),
    format: z.enum(['png', 'jpeg']).default('png'),
    maxWidth: edge.default(DEFAULT_MAX_EDGE),
    maxHeight: edge.default(DEFAULT_MAX_EDGE),
    quality: z.number().int().min(1).max(100).optional().describe(`JPEG quality, default ${DEFAULT_JPEG_QUALITY}; ignored for PNG`),
  }),
  output: z.object({
    width: z.number().int(),
    height: z.number().int(),
    originalWidth: z.number().int(),
    originalHeight: z.number().int(),
    scale: z.number(),
    format: z.enum(['png', 'jpeg']),
    mimeType: z.string(),
    bytes: z.number().int(),
    area: rect.describe('The captured area in physical desktop pixels'),
  }),
  annotations: READ_ONLY,
  enabled,
  target: (args) => ({ format: args.format, display: args.display ?? null, region: args.region ?? null }),
  async run(args, { adapter }) {
    const capture = await adapter.desktop.captureScreen({
      region: args.region,
      display: args.display,
      format: args.format,
      maxWidth: args.maxWidth,
      maxHeight: args.maxHeight,
      quality: args.quality ?? DEFAULT_JPEG_QUALITY,
    });
    const { data, mimeType, format, width, height, originalWidth, originalHeight, scale, area } = capture;
    const structured = { width, height, originalWidth, originalHeight, scale, format, mimeType, bytes: data.length, area };
    const where = area.x === 0 && area.y === 0 ? '' : ` at ${area.x},${area.y}`;
    const text = `Captured ${originalWidth}x${originalHeight}${where} as a ${width}x${height} ${format.toUpperCase()} (scale ${round(scale)}, ${Math.ceil(data.length / 1024)} KB).`;
    return { structured, text, content: [{ type: 'image', data: data.toString('base64'), mimeType }] };
  },
});

const round = (n: number) => Math.round(n * 10_000) / 10_000;

export const screenTools = [screenCapture];
