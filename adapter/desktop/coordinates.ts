/**
 * Screen geometry: mapping caller coordinates to physical pixels with bounds checks, resolving
 * what a capture covers, and the downscale that fits a capture into the requested limits.
 * Pure functions; the worker calls them with the real screen size.
 */
import { adapterError } from '../contract/errors.js';
import type { CoordinateSpace, PointerTarget } from '../contract/desktop.js';
import type { ScreenPoint, ScreenRect, ScreenSize } from '../contract/geometry.js';

const dims = (s: ScreenSize) => `${s.width}x${s.height}`;

/**
 * Maps a point (physical, or in `space`) onto the whole desktop, refusing anything outside it.
 * A space spreads width x height units over its `area` (the whole desktop when omitted).
 */
export function toPhysical(target: PointerTarget, screen: ScreenSize, operation: string): ScreenPoint {
  const { x, y, space } = target;
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw adapterError('INVALID_INPUT', operation, 'x and y must be finite numbers');
  if (space) {
    const area = spaceArea(space, screen, operation);
    checkInside(x, y, space, `the ${dims(space)} space`, operation);
    // floor keeps the last coordinate of the space on the last physical pixel of its area
    return {
      x: area.x + Math.min(area.width - 1, Math.floor((x * area.width) / space.width)),
      y: area.y + Math.min(area.height - 1, Math.floor((y * area.height) / space.height)),
    };
  }
  const point = { x: Math.round(x), y: Math.round(y) };
  checkInside(point.x, point.y, screen, `the ${dims(screen)} screen`, operation, { x, y });
  return point;
}

/** A rectangle given in `space` (or physical pixels) -> the physical rectangle it covers, inside the desktop. */
export function rectToPhysical(rect: ScreenRect, space: CoordinateSpace | undefined, screen: ScreenSize, operation: string): ScreenRect {
  const { x, y, width, height } = rect;
  if (![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) {
    throw adapterError('INVALID_INPUT', operation, `the rectangle needs finite x, y and a positive width and height (got ${x},${y} ${width}x${height})`);
  }
  const area = space ? spaceArea(space, screen, operation) : { x: 0, y: 0, ...screen };
  const sx = space ? area.width / space.width : 1;
  const sy = space ? area.height / space.height : 1;
  const left = area.x + Math.floor(x * sx);
  const top = area.y + Math.floor(y * sy);
  const right = area.x + Math.ceil((x + width) * sx);
  const bottom = area.y + Math.ceil((y + height) * sy);
  const limit = space ? area : { x: 0, y: 0, ...screen };
  if (left < limit.x || top < limit.y || right > limit.x + limit.width || bottom > limit.y + limit.height) {
    const where = space ? `the ${dims(space)} space` : `the ${dims(screen)} screen`;
    throw adapterError('INVALID_INPUT', operation, `the rectangle ${x},${y} ${width}x${height} extends outside ${where}`);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function spaceArea(space: CoordinateSpace, screen: ScreenSize, operation: string): ScreenRect {
  if (!(space.width > 0 && space.height > 0 && Number.isFinite(space.width) && Number.isFinite(space.height))) {
    throw adapterError('INVALID_INPUT', operation, `space must have a positive width and height (got ${dims(space)})`);
  }
  const area = space.area ?? { x: 0, y: 0, ...screen };
  const { x, y, width, height } = area;
  if (![x, y, width, height].every(Number.isInteger) || x < 0 || y < 0 || width < 1 || height < 1 || x + width > screen.width || y + height > screen.height) {
    throw adapterError(
      'INVALID_INPUT',
      operation,
      `space.area ${x},${y} ${width}x${height} is not inside the ${dims(screen)} desktop (pass the space screen.capture returned, unchanged)`,
    );
  }
  return area;
}

/** The display holding a point (the first that does), or the nearest one. */
export function displayAt(point: ScreenPoint, displays: readonly ScreenRect[]): number {
  let best = 0;
  let bestDistance = Infinity;
  displays.forEach((d, i) => {
    const dx = Math.max(d.x - point.x, 0, point.x - (d.x + d.width - 1));
    const dy = Math.max(d.y - point.y, 0, point.y - (d.y + d.height - 1));
    const distance = dx * dx + dy * dy;
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
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
    base = { x: display.x, y: display.y, width: display.width, height: display.height };
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

/** The largest size within the limits (edges and total pixels) that keeps the aspect ratio; never upscales. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number,
  maxHeight: number,
  maxPixels = Infinity,
): { width: number; height: number; scale: number } {
  let scale = Math.min(1, maxWidth / width, maxHeight / height, Math.sqrt(maxPixels / (width * height)));
  if (scale === 1) return { width, height, scale: 1 };
  let out = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
  // rounding up can overshoot a limit by a pixel: step down until every limit holds
  while (out.width > 1 && (out.width > maxWidth || out.height > maxHeight || out.width * out.height > maxPixels)) {
    scale = (out.width - 1) / width;
    out = { width: out.width - 1, height: Math.max(1, Math.round(height * scale)) };
  }
  return { ...out, scale: out.width / width };
}
