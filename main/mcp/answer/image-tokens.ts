/**
 * What an image in an answer costs a model, by OpenAI's published rule for images sent at detail
 * "high" (what "auto" picks for a screenshot), as stated for GPT-4o, GPT-4.1 and GPT-5 in
 * https://platform.openai.com/docs/guides/images-vision#calculating-costs: the image is scaled to
 * fit within 2048 x 2048, then so that its shorter side is at most 768 px; it costs 85 tokens plus
 * 170 per 512 px tile it covers. Hosts that bill differently are close to this or below it.
 */

const BASE_TOKENS = 85;
const TILE_TOKENS = 170;
const TILE = 512;
const FIT = 2048;
const SHORT_SIDE = 768;
/** The most any image costs by the rule (2048 x 768 after scaling: 4 x 2 tiles): used when its size is unknown. */
export const MAX_IMAGE_TOKENS = BASE_TOKENS + TILE_TOKENS * 8;

export function imageTokens(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return MAX_IMAGE_TOKENS;
  let w = width;
  let h = height;
  const fit = Math.min(1, FIT / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(1, SHORT_SIDE / Math.min(w, h));
  w *= short;
  h *= short;
  return BASE_TOKENS + TILE_TOKENS * Math.ceil(w / TILE) * Math.ceil(h / TILE);
}

/** The tokens of a base64 image content block: by its size when its header says it (PNG, JPEG, GIF, WebP), else the most. */
export function imageBlockTokens(base64: string): number {
  const size = imageSize(Buffer.from(base64.slice(0, 64 * 1024), 'base64'));
  return size ? imageTokens(size.width, size.height) : MAX_IMAGE_TOKENS;
}

/** Width and height from an image's first bytes. */
export function imageSize(head: Buffer): { width: number; height: number } | null {
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47 && head.toString('ascii', 12, 16) === 'IHDR') {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (head.length >= 10 && head.toString('ascii', 0, 4) === 'GIF8') return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  if (head.length >= 30 && head.toString('ascii', 0, 4) === 'RIFF' && head.toString('ascii', 8, 12) === 'WEBP') return webpSize(head);
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) return jpegSize(head);
  return null;
}

function webpSize(head: Buffer): { width: number; height: number } | null {
  const chunk = head.toString('ascii', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + head.readUIntLE(24, 3), height: 1 + head.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return null;
}

/** The first start-of-frame marker's size (SOF0-SOF15, not DHT, JPG or DAC). */
function jpegSize(head: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < head.length) {
    if (head[at] !== 0xff) return null;
    const marker = head[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = head.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: head.readUInt16BE(at + 7), height: head.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  return null;
}
