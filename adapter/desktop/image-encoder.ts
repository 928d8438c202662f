/**
 * Raw screen pixels -> downscaled PNG or JPEG, with sharp (libvips). Chosen by measurement:
 * 3-10x faster than the pure-JS and wasm encoders for a 1280x800 frame (see the desktop
 * report). Captures run in the desktop worker; the server loads libvips only when fs.read meets an
 * image (adapter/fs/formats/read-image.ts), so text-only servers never map it.
 */
import type sharpFunction from 'sharp';
import type { ImageFormat } from '../contract/desktop.js';
import type { RawFrame } from './desktop-backend.js';

type Sharp = typeof sharpFunction;
let sharpPromise: Promise<Sharp> | undefined;

/** Loaded on first use (a capture, or fs.read of an image): input-only workers and text reads never pay for libvips. */
export async function loadSharp(): Promise<Sharp> {
  sharpPromise ??= import('sharp').then((mod) => {
    const sharp = mod.default;
    sharp.cache(false); // a long-lived worker must not accumulate libvips caches
    return sharp;
  });
  return sharpPromise;
}

export const JPEG_QUALITY = 80;

/** A classic arrow pointer (black with a white edge), its tip at the top-left corner. */
const POINTER_SIZE = { width: 16, height: 24 };
const POINTER_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="24" viewBox="0 0 16 24">' +
    '<path d="M1 1 L1 19 L5.5 15 L8.5 22 L11 21 L8 14 L14 14 Z" fill="#000" stroke="#fff" stroke-width="1.5" stroke-linejoin="round"/></svg>',
);

/**
 * Encodes a frame, resized to `width` x `height`, with the pointer drawn with its tip at
 * `pointer` (image pixels) when given. The frame's buffer is reused in place.
 */
export async function encodeFrame(
  frame: RawFrame,
  width: number,
  height: number,
  format: ImageFormat,
  quality = JPEG_QUALITY,
  pointer?: { x: number; y: number },
): Promise<Buffer> {
  const sharp = await loadSharp();
  // Alpha is forced opaque first: libvips premultiplies by alpha while resizing. Packed RGB goes in as it is.
  let pipeline = frame.rgb
    ? sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    : sharp(toOpaqueRgba(frame), { raw: { width: frame.width, height: frame.height, channels: 4 } }).removeAlpha();
  if (width !== frame.width || height !== frame.height) pipeline = pipeline.resize(width, height, { fit: 'fill' });
  if (pointer && width >= POINTER_SIZE.width && height >= POINTER_SIZE.height) {
    // composite needs the overlay inside the image: near the right or bottom edge the arrow shifts in
    const left = Math.min(pointer.x, width - POINTER_SIZE.width);
    const top = Math.min(pointer.y, height - POINTER_SIZE.height);
    pipeline = sharp(await pipeline.raw().toBuffer(), { raw: { width, height, channels: 3 } }).composite([{ input: POINTER_SVG, left, top }]);
  }
  pipeline = format === 'png' ? pipeline.png({ compressionLevel: 6 }) : pipeline.jpeg({ quality });
  return pipeline.toBuffer();
}

/** BGRA (any alpha, any row padding) -> tightly packed opaque RGBA, in place when possible. */
function toOpaqueRgba(frame: RawFrame): Buffer {
  const rowBytes = frame.width * 4;
  let buf = frame.data;
  if (frame.byteWidth !== rowBytes || buf.byteOffset % 4 !== 0) {
    const packed = Buffer.allocUnsafe(rowBytes * frame.height);
    for (let y = 0; y < frame.height; y++) buf.copy(packed, y * rowBytes, y * frame.byteWidth, y * frame.byteWidth + rowBytes);
    buf = packed;
  }
  const px = new Uint32Array(buf.buffer, buf.byteOffset, (rowBytes * frame.height) / 4);
  // Read little-endian (x64, arm64): bytes B,G,R,A = 0xAARRGGBB -> 0xFFBBGGRR = bytes R,G,B,255.
  for (let i = 0; i < px.length; i++) {
    const v = px[i] as number;
    px[i] = (0xff000000 | (v & 0xff00) | ((v >>> 16) & 0xff) | ((v & 0xff) << 16)) >>> 0;
  }
  return buf;
}
