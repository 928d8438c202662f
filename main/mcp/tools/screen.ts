/** screen.displays and screen.capture: the monitor layout, and screenshots sized for models. */
import * as z from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { rect, spaceSchema } from './desktop-schemas.js';
import { imageTokens } from '../answer/image-tokens.js';

/** Sized for today's vision models: long edge at most 1568 px and about 1.15 megapixels. */
export const DEFAULT_MAX_EDGE = 1568;
export const DEFAULT_MAX_PIXELS = 1_150_000;
const NO_LIMIT_EDGE = 16_384;
const NO_LIMIT_PIXELS = NO_LIMIT_EDGE * NO_LIMIT_EDGE;
const DEFAULT_JPEG_QUALITY = 80;

const display = z.object({
  index: z.number().int(),
  name: z.string(),
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  scaleFactor: z.number(),
  primary: z.boolean(),
});

export const screenDisplays = defineTool({
  name: 'screen.displays',
  title: 'List the displays',
  description:
    'Lists every display (monitor) with its bounds in the virtual desktop (physical pixels; all coordinates of screen.* and input.* are in this ' +
    'desktop), its scale factor (physical pixels per logical point: 2 on Retina) and which one is primary.',
  input: z.object({}),
  output: z.object({
    desktop: z.object({ width: z.number().int(), height: z.number().int() }),
    displays: z.array(display),
    backend: z
      .object({ name: z.string(), limits: z.array(z.string()), granted: z.string().optional() })
      .describe('The desktop backend serving the session, what it cannot do, and what the desktop itself granted'),
  }),
  annotations: READ_ONLY,
  grant: GRANT.screen,
  async run(_args, { adapter }) {
    const [list, backend] = await Promise.all([adapter.desktop.listDisplays(), adapter.desktop.backendInfo()]);
    const lines = list.displays.map(
      (d) =>
        `${d.index}: ${d.name} ${d.width}x${d.height} at ${d.x},${d.y}${d.scaleFactor !== 1 ? ` (scale ${d.scaleFactor})` : ''}${d.primary ? ' primary' : ''}`,
    );
    const limits = backend.limits.length ? `\nBackend ${backend.name} cannot: ${backend.limits.join('; ')}.` : `\nBackend ${backend.name}.`;
    return { structured: { ...list, backend }, text: `Desktop ${list.desktop.width}x${list.desktop.height}; displays:\n${lines.join('\n')}${limits}` };
  },
});

/** Creates new files (never overwrites), so not read-only; not destructive. */
const SAVES_FILES = Object.freeze({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });

const edge = z.number().int().min(16).max(NO_LIMIT_EDGE);

/** 1150000 -> "1,150,000". Not toLocaleString: that loads ICU's locale data, ~7 MiB of resident memory in every server. */
function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

export const screenCapture = defineTool({
  name: 'screen.capture',
  title: 'Capture the screen',
  description:
    `Takes a screenshot of the whole desktop, one display, a region, or a zoomed rectangle, as PNG (default) or JPEG. By default the image is ` +
    `downscaled (never upscaled) to at most ${DEFAULT_MAX_EDGE} px on the long edge and ${groupDigits(DEFAULT_MAX_PIXELS)} pixels, which vision models ` +
    "read well (about 1,100 tokens; 512 px costs 255, by OpenAI's image rule: `tokens` says what each capture costs); `zoom` captures a rectangle at full resolution instead. The result says the scale and gives `space`: pass it unchanged as `space` " +
    'to input.* with x, y read from this image and they land on the same spot. `pointer: true` draws the mouse pointer. `saveTo` also writes the ' +
    'image to a new file inside a writable root (when the owner allowed it), for hosts that drop images.',
  input: z.object({
    region: rect.optional().describe('Area in physical pixels; relative to the display when display is given, else to the whole desktop'),
    display: z.number().int().min(0).optional().describe('Display index from screen.displays; omit for the whole desktop'),
    zoom: rect
      .optional()
      .describe('A rectangle to capture at full resolution, in desktop pixels or in `space` (e.g. read from an earlier capture); not with region/display'),
    space: spaceSchema.optional().describe('The space zoom is given in (the `space` of an earlier capture)'),
    format: z.enum(['png', 'jpeg']).default('png'),
    maxWidth: edge.optional().describe(`Default ${DEFAULT_MAX_EDGE} (no limit with zoom)`),
    maxHeight: edge.optional().describe(`Default ${DEFAULT_MAX_EDGE} (no limit with zoom)`),
    maxPixels: z.number().int().min(256).max(NO_LIMIT_PIXELS).optional().describe(`Default ${DEFAULT_MAX_PIXELS} (no limit with zoom)`),
    quality: z.number().int().min(1).max(100).optional().describe(`JPEG quality, default ${DEFAULT_JPEG_QUALITY}; ignored for PNG`),
    pointer: z.boolean().default(false).describe('Draw the mouse pointer into the image'),
    saveTo: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('Also write the image to this new file (.png or .jpg) inside a writable root; needs desktop.saveCaptures'),
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
    tokens: z.number().int().describe('What the image costs a model (OpenAI’s rule for detail "high"); a smaller maxWidth/maxHeight costs less'),
    area: rect.describe('The captured area in physical desktop pixels'),
    space: spaceSchema.describe('Pass as `space` to input.* for coordinates read from this image'),
    display: z.number().int().describe('The display the captured area is on'),
    pointer: z.object({ x: z.number().int(), y: z.number().int(), inImage: z.object({ x: z.number().int(), y: z.number().int() }).nullable() }).optional(),
    savedTo: z.string().optional(),
  }),
  // What the text states (in short for a full-size capture of the whole desktop): ChatGPT reads it once.
  payload: ['width', 'height', 'originalWidth', 'originalHeight', 'scale', 'format', 'mimeType', 'bytes', 'tokens', 'area', 'space', 'display'],
  annotations: READ_ONLY,
  // With saveTo allowed the tool can create files, so it is no longer read-only to the host.
  annotationsFor: (config) => (config.desktop.saveCaptures ? SAVES_FILES : READ_ONLY),
  grant: GRANT.screen,
  target: (args) => ({ format: args.format, display: args.display ?? null, zoom: args.zoom !== undefined, saved: args.saveTo !== undefined }),
  async run(args, { adapter, policy }) {
    const zoomed = args.zoom !== undefined;
    const options = {
      region: args.region,
      display: args.display,
      zoom: args.zoom ? { rect: args.zoom, space: args.space } : undefined,
      format: args.format,
      maxWidth: args.maxWidth ?? (zoomed ? NO_LIMIT_EDGE : DEFAULT_MAX_EDGE),
      maxHeight: args.maxHeight ?? (zoomed ? NO_LIMIT_EDGE : DEFAULT_MAX_EDGE),
      maxPixels: args.maxPixels ?? (zoomed ? NO_LIMIT_PIXELS : DEFAULT_MAX_PIXELS),
      quality: args.quality ?? DEFAULT_JPEG_QUALITY,
      drawPointer: args.pointer,
    };
    // The file is checked before anything is captured, and written through the checked folder.
    const file = args.saveTo === undefined ? undefined : await policy.desktop.captureFile(args.saveTo, args.format, 'screen.capture');
    const result = await adapter.desktop.captureScreen(options);
    if (file) await policy.fsLock.run([{ path: file.path, exclusive: true }], () => adapter.files.createFile(file, result.data));
    const savedTo = file?.path;
    const { data, mimeType, format, width, height, originalWidth, originalHeight, scale, area, space, display: on, pointer } = result;
    const structured = {
      width,
      height,
      originalWidth,
      originalHeight,
      scale,
      format,
      mimeType,
      bytes: data.length,
      tokens: imageTokens(width, height),
      area,
      space,
      display: on,
      ...(pointer ? { pointer } : {}),
      ...(savedTo ? { savedTo } : {}),
    };
    const tokens = `${width}x${height} ${format.toUpperCase()}, ${groupDigits(imageTokens(width, height))} tokens`;
    // Full size from the desktop's origin needs no more words: x, y in it are desktop pixels (input.* without space).
    const whole = scale === 1 && area.x === 0 && area.y === 0;
    const where = area.x === 0 && area.y === 0 ? '' : ` at ${area.x},${area.y}`;
    const text =
      (whole
        ? tokens
        : `${tokens}: ${originalWidth}x${originalHeight}${where} (display ${on}, scale ${round(scale)}, ${Math.ceil(data.length / 1024)} KB). For input.* use space ${JSON.stringify(space)}.`) +
      (savedTo ? ` Saved to ${savedTo}.` : '');
    return { structured, text, content: [{ type: 'image', data: data.toString('base64'), mimeType }] };
  },
});

const round = (n: number) => Math.round(n * 10_000) / 10_000;

export const screenTools = [screenDisplays, screenCapture];
