import { expect, test } from 'vitest';
import { wheelClicks } from '../../../adapter/desktop/scroll-units.js';
import { interpolate } from '../../../adapter/desktop/pointer-actions.js';

test.each([
  [3, 'clicks', 3],
  [-2, 'clicks', -2],
  [0, 'clicks', 0],
  [0.2, 'clicks', 1], // never zero for a non-zero request
  [6, 'lines', 2],
  [-1, 'lines', -1],
  [240, 'pixels', 2],
  [100, 'pixels', 1],
  [-30, 'pixels', -1],
  [Number.NaN, 'pixels', 0],
] as const)('%d %s = %d wheel clicks', (amount, unit, clicks) => {
  expect(wheelClicks(amount, unit)).toBe(clicks);
});

test('a drag path is walked in small steps through every given point', () => {
  const path = interpolate(
    [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 10 },
    ],
    20,
    1000,
  );
  expect(path.map((p) => p.x)).toEqual([0, 20, 40, 60, 80, 100, 100]);
  expect(path.at(-1)).toEqual({ x: 100, y: 10 });
  const long = interpolate(
    [
      { x: 0, y: 0 },
      { x: 10_000, y: 0 },
    ],
    1,
    50,
  );
  expect(long).toHaveLength(50);
  expect(long.at(-1)).toEqual({ x: 10_000, y: 0 });
});
