/**
 * How pointer actions unfold in time, as plans both back ends play: nut-js in the desktop worker
 * (step by step, sleeping in between) and the X11 protocol in the server (one batch, the X server
 * doing the waiting through XTest's delays). Clicks of a double or triple click come 30 ms apart,
 * wheel clicks one at a time 8 ms apart, drags move in steps of at most 20 px.
 */
import type { MouseButton } from '../contract/desktop.js';
import type { ScreenPoint } from '../contract/geometry.js';

/** One thing the pointer does, `delayMs` after the step before it. */
export type PointerStep = { delayMs: number } & (
  | { kind: 'move'; point: ScreenPoint }
  | { kind: 'press' | 'release'; button: MouseButton }
  /** One wheel click: +1 scrolls down (y) or right (x). */
  | { kind: 'wheel'; axis: 'x' | 'y'; direction: 1 | -1 }
);

/** Between the clicks of a double or triple click: well inside every OS's multi-click interval. */
const MULTI_CLICK_GAP_MS = 30;
/** A burst of wheel clicks sent at once can lose a click in the app. */
const WHEEL_CLICK_GAP_MS = 8;
/** Drags move in steps of at most this many pixels, so apps see a continuous motion. */
const DRAG_STEP_PX = 20;
const MAX_DRAG_STEPS = 2000;
/** All the pauses of one drag together: longer paths move with shorter pauses. */
export const MAX_DRAG_PAUSE_MS = 10_000;

export function clickSteps(button: MouseButton, clicks: number): PointerStep[] {
  return Array.from({ length: clicks }, (_, i): PointerStep[] => [
    { kind: 'press', button, delayMs: i > 0 ? MULTI_CLICK_GAP_MS : 0 },
    { kind: 'release', button, delayMs: 0 },
  ]).flat();
}

/** Vertical clicks first, then horizontal ones. */
export function wheelSteps(clicks: { x: number; y: number }): PointerStep[] {
  const axes = [
    { axis: 'y' as const, n: clicks.y },
    { axis: 'x' as const, n: clicks.x },
  ];
  const steps = axes.flatMap(({ axis, n }) =>
    Array.from({ length: Math.abs(n) }, (): PointerStep => ({ kind: 'wheel', axis, direction: n > 0 ? 1 : -1, delayMs: WHEEL_CLICK_GAP_MS })),
  );
  if (steps[0]) steps[0].delayMs = 0;
  return steps;
}

/** Press at the first point, move through the path (checked already), release at the last; the pauses are capped in all. */
export function dragSteps(path: readonly ScreenPoint[], button: MouseButton, stepDelayMs: number): PointerStep[] {
  const points = interpolate(path, DRAG_STEP_PX, MAX_DRAG_STEPS);
  const pause = Math.max(0, Math.min(stepDelayMs, Math.floor(MAX_DRAG_PAUSE_MS / points.length)));
  return [
    { kind: 'move', point: points[0]!, delayMs: 0 },
    { kind: 'press', button, delayMs: 0 },
    ...points.slice(1).map((point): PointerStep => ({ kind: 'move', point, delayMs: pause })),
    { kind: 'release', button, delayMs: pause },
  ];
}

export const totalDelayMs = (steps: readonly PointerStep[]): number => steps.reduce((sum, step) => sum + step.delayMs, 0);

/** The points of a path with steps of at most `step` pixels between them (the given points included). */
export function interpolate(path: readonly ScreenPoint[], step: number, maxPoints: number): ScreenPoint[] {
  const out: ScreenPoint[] = [path[0]!];
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1]!;
    const to = path[i]!;
    const n = Math.max(1, Math.ceil(Math.hypot(to.x - from.x, to.y - from.y) / step));
    for (let k = 1; k <= n; k++) out.push({ x: Math.round(from.x + ((to.x - from.x) * k) / n), y: Math.round(from.y + ((to.y - from.y) * k) / n) });
  }
  if (out.length <= maxPoints) return out;
  // too many: thin evenly, keeping the end point
  const stride = out.length / maxPoints;
  const thinned = Array.from({ length: maxPoints - 1 }, (_, i) => out[Math.floor(i * stride)]!);
  thinned.push(out[out.length - 1]!);
  return thinned;
}
