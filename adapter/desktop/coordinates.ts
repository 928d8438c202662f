/**
 * Screen geometry: mapping caller coordinates to physical pixels with bounds checks, resolving
 * what a capture covers, and the downscale that fits a capture into the requested limits.
 * Pure functions; the worker calls them with the real screen size.
 */
import { adapterError } from '../errors.js';
import type { PointerTarget, ScreenPoint, ScreenRect, ScreenSize } from './desktop-ops.js';

const dims = (s: ScreenSize) => `${s.width}x${s.height}`;

/** Maps a point (physical, or in `space`) onto the whole desktop, refusing anything outside it. */
export function toPhysical(target: PointerTarget, screen: ScreenSize, operation: string): ScreenPoint {
  const { x, y, space } = target;
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw adapterError('INVALID_INPUT', operation, 'x and y must be finite numbers');
  if (space) {
    if (!(space.width > 0 && space.height > 0 && Number.isFinite(space.width) && Number.isFinite(space.height))) {
      throw adapterError('INVALID_INPUT', operation, `space must have a positive width and height (got ${dims(space)})`);
    }
    checkInside(x, y, space, `the ${dims(space)} space`, operation);
    // floor keeps the last coordinate of the space on the last physical pixel
    return {
      x: Math.min(screen.width - 1, Math.floor((x * screen.width) / space.width)),
      y: Math.min(screen.height - 1, Math.floor((y * screen.height) / space.height)),
    };
  }
  const point = { x: Math.round(x), y: Math.round(y) };
  checkInside(point.x, point.y, screen, `the ${dims(screen)} screen`, operation, { x, y });
  return point;
}

function checkInside(x: number, y: number, area: ScreenSize, name: string, operation: string, shown = { x, y }): void {
  if (x < 0 || x >= area.width) throw adapterError('INVALID_INPUT', operation, `x=${shown.x} is outside ${name} (valid x: 0 to ${area.width - 1})`);
  if (y < 0 || y >= area.height) throw adapterError('INVALID_INPUT', operation, `y=${shown.y} is outside ${name} (valid y: 0 to ${area.height - 1})`);
}

export function describeDisplays(displays: readonly ScreenRect[]): string {
  return displays.map((d, i) => `${i} = ${d.width}x${d.height} at ${d.x},${d.y}`).join('; ');
}

/**
 * The physical area a capture covers: the whole desktop, one display, or a region of either
 * (a region is relative to the display when one is given).
 */
export function captureArea(
  request: { region?: ScreenRect; display?: number },
  screen: ScreenSize,
  displays: readonly ScreenRect[],
  operation: string,
): ScreenRect {
  let base: ScreenRect = { x: 0, y: 0, ...screen };
  let name = `the ${dims(screen)} screen`;
  if (request.display !== undefined) {
    const display = displays[request.display];
    if (!display) throw adapterError('INVALID_INPUT', operation, `display ${request.display} does not exist; displays: ${describeDisplays(displays)}`);
    base = display;
    name = `display ${request.display} (${dims(display)})`;
  }
  const region = request.region;
  if (!region) return { ...base };
  const { x, y, width, height } = region;
  if (![x, y, width, height].every(Number.isInteger) || x < 0 || y < 0 || width < 1 || height < 1) {
    throw adapterError('INVALID_INPUT', operation, `region needs whole numbers x, y >= 0 and width, height >= 1 (got ${x},${y} ${width}x${height})`);
  }
  if (x + width > base.width || y + height > base.height) {
    throw adapterError('INVALID_INPUT', operation, `region ${x},${y} ${width}x${height} extends outside ${name}`);
  }
  return { x: base.x + x, y: base.y + y, width, height };
}

/** The largest size within the limits that keeps the aspect ratio; never upscales. */
export function fitWithin(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number; scale: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  if (scale === 1) return { width, height, scale: 1 };
  const out = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
  return { ...out, scale: out.width / width };
}
