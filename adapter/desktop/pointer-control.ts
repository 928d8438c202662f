/**
 * The pointer calls of DesktopOps over any PointerBackend, the same for every backend: a target
 * (a physical point, a point in a coordinate space, or, in the worker, an element) becomes a
 * physical point checked against the desktop before anything moves, the action is played as a
 * plan of pointer-actions.ts, and the result says which display the point is on. The worker
 * runs it over its backend's pointer; the server over an in-process pointer.
 */
import { adapterError } from '../contract/errors.js';
import type {
  ButtonResult,
  ClickResult,
  DisplayInfo,
  DragResult,
  Modifier,
  MouseButton,
  PointerMoves,
  PointerResult,
  PointerTarget,
  ScrollResult,
} from '../contract/desktop.js';
import type { ScreenPoint, ScreenRect, ScreenSize } from '../contract/geometry.js';
import { displayAt, toPhysical } from './coordinates.js';
import type { KeyboardBackend, PointerBackend } from './desktop-backend.js';
import { clickSteps, dragSteps, wheelSteps } from './pointer-actions.js';
import { isRefTarget, type WorkerTarget } from './worker-protocol.js';

export interface PointerControlOptions {
  /** The monitors of a desktop of this size (display-layout.ts). */
  displays(desktop: ScreenSize): Promise<DisplayInfo[]>;
  /** Where an element is now (the accessibility provider); without it, targets are points only. */
  elementBounds?(ref: string, operation: string): Promise<ScreenRect>;
  /** Holds the modifiers of a click; without it, a click takes none. */
  keyboard?: KeyboardBackend;
}

export class PointerControl<P extends PointerBackend = PointerBackend> {
  constructor(
    readonly pointer: P,
    private readonly options: PointerControlOptions,
  ) {}

  get canPress(): boolean {
    return this.pointer.canPress;
  }

  /** Moves to a point or to an element's current centre, refusing one outside the desktop before anything moves. */
  async move(target: WorkerTarget, operation: string): Promise<PointerResult> {
    const desktop = await this.pointer.desktop();
    let point: ScreenPoint;
    let element: PointerResult['element'];
    if (isRefTarget(target)) {
      if (!this.options.elementBounds) throw adapterError('INVALID_INPUT', operation, 'this pointer cannot find elements');
      const bounds = await this.options.elementBounds(target.ref, operation);
      point = { x: bounds.x + Math.floor(bounds.width / 2), y: bounds.y + Math.floor(bounds.height / 2) };
      if (point.x < 0 || point.y < 0 || point.x >= desktop.width || point.y >= desktop.height) {
        throw adapterError(
          'NOT_FOUND',
          operation,
          `element ${target.id} is outside the desktop now (centre ${point.x},${point.y}); scroll it into view and take a new ui.snapshot`,
        );
      }
      element = { id: target.id, bounds };
    } else {
      point = toPhysical(target, desktop, operation);
    }
    const at = await this.located(await this.pointer.moveTo(point, operation), desktop);
    return element ? { ...at, element } : at;
  }

  /** Moves to each target in turn (points, not elements), all sent at once where the pointer can; stops at the first that fails. */
  async moveEach(targets: readonly PointerTarget[], operation: string): Promise<PointerMoves> {
    const desktop = await this.pointer.desktop();
    const points: ScreenPoint[] = [];
    let failure: unknown;
    for (const target of targets) {
      try {
        points.push(toPhysical(target, desktop, operation)); // refused before anything moves
      } catch (error) {
        failure = error;
        break;
      }
    }
    const settled = this.pointer.moveToEach
      ? await this.pointer.moveToEach(points, operation)
      : await sequentially(points.map((point) => () => this.pointer.moveTo(point, operation)));
    const reached: PointerResult[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'rejected') return { reached, failure: outcome.reason };
      reached.push(await this.located(outcome.value, desktop));
    }
    return failure === undefined ? { reached } : { reached, failure };
  }

  async position(operation: string): Promise<PointerResult> {
    const point = await this.pointer.position(operation);
    return this.located(point, await this.pointer.desktop());
  }

  async click(target: WorkerTarget | undefined, button: MouseButton, clicks: 1 | 2 | 3, modifiers: Modifier[], operation: string): Promise<ClickResult> {
    const at = await this.at(target, operation);
    const play = () => this.pointer.play(clickSteps(button, clicks), operation);
    if (modifiers.length === 0) await play();
    else if (this.options.keyboard) await this.options.keyboard.hold(modifiers, operation, play);
    else throw adapterError('INVALID_INPUT', operation, 'this pointer cannot hold modifier keys');
    return { ...at, button, clicks, modifiers };
  }

  async scroll(target: WorkerTarget | undefined, clicks: ScreenPoint, operation: string): Promise<ScrollResult> {
    const at = await this.at(target, operation);
    await this.pointer.play(wheelSteps(clicks), operation);
    return { ...at, clicks };
  }

  async drag(path: readonly PointerTarget[], button: MouseButton, stepDelayMs: number, operation: string): Promise<DragResult> {
    const desktop = await this.pointer.desktop();
    // every point is checked before the button goes down: a bad point must not leave a half-done drag
    const points = path.map((p) => toPhysical(p, desktop, operation));
    await this.pointer.play(dragSteps(points, button, stepDelayMs), operation);
    return { button, path: points, start: await this.located(points[0]!, desktop), end: await this.located(points[points.length - 1]!, desktop) };
  }

  async button(action: 'down' | 'up', target: PointerTarget | undefined, button: MouseButton, operation: string): Promise<ButtonResult> {
    const at = await this.at(target, operation);
    await this.pointer.play([{ kind: action === 'down' ? 'press' : 'release', button, delayMs: 0 }], operation);
    return { ...at, action, button };
  }

  /** At `target` (moving there first), or where the pointer is when there is none. */
  private async at(target: WorkerTarget | undefined, operation: string): Promise<PointerResult> {
    return target ? this.move(target, operation) : this.position(operation);
  }

  private async located(point: ScreenPoint, desktop: ScreenSize): Promise<PointerResult> {
    return { ...point, display: displayAt(point, await this.options.displays(desktop)) };
  }
}

/** Moves one after another with `move` until one fails (where a pointer cannot send them together). */
export async function movesInTurn(targets: readonly PointerTarget[], move: (target: PointerTarget) => Promise<PointerResult>): Promise<PointerMoves> {
  const settled = await sequentially(targets.map((target) => () => move(target)));
  const reached = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  return failed ? { reached, failure: failed.reason } : { reached };
}

/** Runs each in turn until one fails; their outcomes, as Promise.allSettled gives them. */
async function sequentially<T>(runs: ReadonlyArray<() => Promise<T>>): Promise<Array<PromiseSettledResult<T>>> {
  const settled: Array<PromiseSettledResult<T>> = [];
  for (const run of runs) {
    try {
      settled.push({ status: 'fulfilled', value: await run() });
    } catch (reason) {
      settled.push({ status: 'rejected', reason });
      break;
    }
  }
  return settled;
}
