/**
 * Scrolling is sent as mouse-wheel clicks, the only unit every OS input API shares; the app
 * decides how far one click moves (3 lines in most apps, 120 px in Chromium on Linux and
 * Windows, whose WHEEL_DELTA is 120). Lines and pixels are converted at those conventions,
 * rounded to whole clicks, and never to zero for a non-zero request.
 */
import { adapterError } from '../contract/errors.js';

export const LINES_PER_CLICK = 3;
export const PIXELS_PER_CLICK = 120;
/** At most this many wheel clicks per call on each axis. */
export const MAX_WHEEL_CLICKS = 200;

export function wheelClicks(amount: number, unit: 'clicks' | 'lines' | 'pixels'): number {
  if (!Number.isFinite(amount) || amount === 0) return 0;
  const per = unit === 'clicks' ? 1 : unit === 'lines' ? LINES_PER_CLICK : PIXELS_PER_CLICK;
  const clicks = Math.round(Math.abs(amount) / per);
  return Math.sign(amount) * Math.max(1, clicks);
}

/** The wheel clicks of a scroll on each axis, or INVALID_INPUT for none or too many. */
export function scrollClicks(options: { dx: number; dy: number; unit: 'clicks' | 'lines' | 'pixels' }, operation: string): { x: number; y: number } {
  const clicks = { x: wheelClicks(options.dx, options.unit), y: wheelClicks(options.dy, options.unit) };
  if (clicks.x === 0 && clicks.y === 0) throw adapterError('INVALID_INPUT', operation, 'give dx or dy (non-zero) to scroll');
  const most = Math.max(Math.abs(clicks.x), Math.abs(clicks.y));
  if (most > MAX_WHEEL_CLICKS) throw adapterError('INVALID_INPUT', operation, `at most ${MAX_WHEEL_CLICKS} wheel clicks per call on each axis (asked ${most})`);
  return clicks;
}
