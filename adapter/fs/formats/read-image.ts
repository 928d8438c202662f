/**
 * An image file, decoded and scaled for a model with the screen captures' scaler (sharp, loaded
 * lazily; fitWithin's limits). Bombs are refused before decoding: the file's size is bounded, the
 * header's pixel count is checked against MAX_INPUT_PIXELS (and libvips enforces it again), and
 * decoding stops after DECODE_SECONDS. A HEIF file is read by libvips when it is AV1 (AVIF); a
 * HEVC one (an iPhone's HEIC) is decoded to pixels by heic-decode in a worker (heic-image.ts).
 */
import { adapterError, isComputerAdapterError } from '../../contract/errors.js';
import type { GuardedPath, ImageFileRead, ImageReadOptions, PixelRect } from '../../contract/files.js';
import { fitWithin } from '../../desktop/coordinates.js';
import { JPEG_QUALITY, loadSharp } from '../../desktop/image-encoder.js';
import { readWhole } from './read-whole.js';
import { decodeHeic } from './heic-image.js';

/** Larger image files are refused unread. */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
/** 100 megapixels: more than any camera's photo; a decompression bomb claims far more. */
export const MAX_INPUT_PIXELS = 100_000_000;
const DECODE_SECONDS = 20;
const op = 'fs.read';

export type ImageKind = ImageFileRead['sourceFormat'];

export async function readImage(file: GuardedPath, sourceFormat: ImageKind, options: ImageReadOptions): Promise<ImageFileRead> {
  const { data: input, totalBytes } = await readWhole(file, MAX_IMAGE_BYTES, 'image');
  const sharp = await loadSharp();
  const fromFile = (limit: number | false = MAX_INPUT_PIXELS) =>
    sharp(input, { limitInputPixels: limit, autoOrient: true, pages: 1, failOn: 'error' }).timeout({ seconds: DECODE_SECONDS });
  let meta: { width: number; height: number };
  let hevc: boolean;
  try {
    // The header only: the pixel count is checked here, so a bomb is named as one.
    const header = await fromFile(false).metadata();
    meta = header.autoOrient;
    hevc = sourceFormat === 'heif' && header.compression === 'hevc';
  } catch (error) {
    throw damaged(file.path, sourceFormat, error);
  }
  refuseBomb(meta, file.path);
  let open = fromFile;
  if (hevc) {
    // libheif applies the file's rotation and mirroring as it decodes: the pixels' size is the truth.
    const pixels = await decodeHeic(input, { path: file.path, maxPixels: MAX_INPUT_PIXELS, seconds: DECODE_SECONDS, signal: options.signal });
    if ('claims' in pixels) refuseBomb(pixels.claims, file.path);
    else {
      const raw = { width: pixels.width, height: pixels.height, channels: 4 as const };
      meta = { width: pixels.width, height: pixels.height };
      open = () => sharp(pixels.data, { raw, limitInputPixels: MAX_INPUT_PIXELS }).timeout({ seconds: DECODE_SECONDS });
    }
  }
  const area = checkedRegion(options.region, meta, file.path);
  const fit = fitWithin(area.width, area.height, options.maxWidth, options.maxHeight, options.maxPixels);
  const format = options.format ?? (sourceFormat === 'png' || sourceFormat === 'gif' ? 'png' : 'jpeg');
  if (options.signal?.aborted) throw adapterError('PRECONDITION_FAILED', op, 'the request was cancelled');
  let pipeline = open();
  if (options.region) pipeline = pipeline.extract({ left: area.x, top: area.y, width: area.width, height: area.height });
  if (fit.width !== area.width || fit.height !== area.height) pipeline = pipeline.resize(fit.width, fit.height, { fit: 'fill' });
  pipeline = format === 'png' ? pipeline.png({ compressionLevel: 6 }) : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: JPEG_QUALITY });
  let data: Buffer;
  try {
    data = await pipeline.toBuffer();
  } catch (error) {
    throw damaged(file.path, sourceFormat, error);
  }
  return {
    kind: 'image',
    sourceFormat,
    data,
    mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
    format,
    width: fit.width,
    height: fit.height,
    originalWidth: meta.width,
    originalHeight: meta.height,
    area,
    totalBytes,
  };
}

function refuseBomb(size: { width: number; height: number }, path: string): void {
  const pixels = size.width * size.height;
  if (!(pixels > 0) || pixels > MAX_INPUT_PIXELS) {
    throw adapterError(
      'INVALID_INPUT',
      op,
      `${path} claims ${size.width}x${size.height} pixels; images over ${MAX_INPUT_PIXELS / 1e6} megapixels are refused (a decompression bomb, or too large to read)`,
    );
  }
}

function checkedRegion(region: PixelRect | undefined, size: { width: number; height: number }, path: string): PixelRect {
  if (!region) return { x: 0, y: 0, width: size.width, height: size.height };
  const { x, y, width, height } = region;
  if (x < 0 || y < 0 || width < 1 || height < 1 || x + width > size.width || y + height > size.height) {
    throw adapterError('INVALID_INPUT', op, `region ${x},${y} ${width}x${height} is not inside ${path} (${size.width}x${size.height} pixels)`);
  }
  return region;
}

function damaged(path: string, kind: ImageKind, error: unknown): unknown {
  if (isComputerAdapterError(error)) return error;
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const timedOut = /timeout/i.test(reason);
  const why = timedOut ? `decoding took over ${DECODE_SECONDS} s` : /pixel limit/i.test(reason) ? `it has over ${MAX_INPUT_PIXELS / 1e6} megapixels` : reason;
  return adapterError('INVALID_INPUT', op, `${path} is a ${kind.toUpperCase()} file that could not be read as an image (${why}); nothing was returned`);
}
