/**
 * The pointer driven from the server process over the X11 protocol: WarpPointer and
 * QueryPointer to move and read it, XTest's FakeInput for buttons, the wheel and the motion of a
 * drag. That is what libnut does through Xlib, without the round trip to the desktop worker, for
 * the calls a computer-use model makes most. The code is plain protocol over a socket, so it
 * cannot crash the server the way native code can. Only a local X display qualifies; anything
 * else (and anything needing the keyboard or the accessibility tree) stays with the worker.
 */
import { adapterError } from '../../contract/errors.js';
import type { MouseButton } from '../../contract/desktop.js';
import type { ScreenPoint, ScreenSize } from '../../contract/geometry.js';
import type { InProcessPointer } from '../desktop-backend.js';
import { totalDelayMs, type PointerStep } from '../pointer-actions.js';
import { nameRequest, wordRequest, X11Connection, X11Error } from './x11-connection.js';

const OPCODE_WARP_POINTER = 41;
const OPCODE_QUERY_POINTER = 38;
const OPCODE_QUERY_EXTENSION = 98;
const XTEST_FAKE_INPUT = 2;
const BUTTON_PRESS = 4;
const BUTTON_RELEASE = 5;
const MOTION_NOTIFY = 6;
const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
/** X11's wheel buttons: 4 up, 5 down, 6 left, 7 right. */
const WHEEL = { y: { [-1]: 4, 1: 5 }, x: { [-1]: 6, 1: 7 } } as const;

export class X11Pointer implements InProcessPointer {
  private constructor(
    private readonly connection: X11Connection,
    private readonly timeoutMs: number,
    /** XTest's major opcode, when the server has the extension (buttons and the wheel need it). */
    private readonly xtest: number | undefined,
  ) {}

  /** Connects to the display `env` names; rejects with the reason when it is not a local X display we can trust and reach. */
  static async connect(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<X11Pointer> {
    const connection = await X11Connection.openLocal(env, timeoutMs);
    try {
      const reply = await connection.exchange([nameRequest(OPCODE_QUERY_EXTENSION, 'XTEST')], timeoutMs);
      return new X11Pointer(connection, timeoutMs, reply[8] ? reply[9] : undefined);
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  /** Whether buttons and the wheel can be used here (the X server has XTest). */
  get canPress(): boolean {
    return this.xtest !== undefined;
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  /** The whole desktop: the root window, kept current by the connection. */
  async desktop(): Promise<ScreenSize> {
    return { width: this.connection.screen.width, height: this.connection.screen.height };
  }

  /** Where the pointer is, as the X server reports it. */
  async position(operation: string): Promise<ScreenPoint> {
    return this.failing(operation, () => this.exchange([]));
  }

  /** Warps to `point` and answers where the X server then says the pointer is. */
  async moveTo(point: ScreenPoint, operation: string): Promise<ScreenPoint> {
    return this.failing(operation, () => this.exchange([warp(this.root, point)]));
  }

  /**
   * Every warp and the QueryPointer after it in one write: the X server runs them in order and
   * answers each query, and wakes up once for them all (each wake-up costs more CPU than the move).
   */
  async moveToEach(points: readonly ScreenPoint[], operation: string): Promise<Array<PromiseSettledResult<ScreenPoint>>> {
    const moves = this.connection.together(() => points.map((point) => this.failing(operation, () => this.exchange([warp(this.root, point)]))));
    return Promise.allSettled(moves);
  }

  /**
   * Sends the whole plan as one batch of XTest events, each delayed by the X server itself
   * (FakeInput's time field), and waits for the QueryPointer after them. One wake-up per action
   * instead of one per step: on these machines each wake-up after idle costs far more CPU than
   * the step. The X server goes on with the batch after an error, so a pressed button is released.
   */
  async play(steps: readonly PointerStep[], operation: string): Promise<void> {
    await this.failing(operation, () => {
      const requests = steps.flatMap((step) => {
        switch (step.kind) {
          case 'move':
            return [this.fakeInput(MOTION_NOTIFY, 0, step.delayMs, step.point)];
          case 'press':
            return [this.fakeInput(BUTTON_PRESS, BUTTONS[step.button], step.delayMs)];
          case 'release':
            return [this.fakeInput(BUTTON_RELEASE, BUTTONS[step.button], step.delayMs)];
          case 'wheel': {
            const wheel = WHEEL[step.axis][step.direction];
            return [this.fakeInput(BUTTON_PRESS, wheel, step.delayMs), this.fakeInput(BUTTON_RELEASE, wheel, 0)];
          }
        }
      });
      return this.exchange(requests, totalDelayMs(steps));
    });
  }

  close(): void {
    this.connection.close();
  }

  private get root(): number {
    return this.connection.screen.root;
  }

  /** Sends the requests and a QueryPointer after them; returns where the pointer is then. `delayMs`: what the requests ask the server to wait. */
  private async exchange(requests: Buffer[], delayMs = 0): Promise<ScreenPoint> {
    const reply = await this.connection.exchange([...requests, query(this.root)], this.timeoutMs + delayMs);
    return { x: reply.readInt16LE(16), y: reply.readInt16LE(18) }; // root-x, root-y
  }

  /** X11 failures become the adapter's errors, named after the operation. */
  private async failing<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof X11Error)) throw error;
      throw adapterError(/did not answer within/.test(error.message) ? 'TIMEOUT' : 'OS_ERROR', operation, `${operation} failed: ${error.message}`);
    }
  }

  /** XTest FakeInput: a button event, or an absolute motion to `point`, processed `delayMs` after the request before it. */
  private fakeInput(type: number, detail: number, delayMs: number, point?: ScreenPoint): Buffer {
    if (this.xtest === undefined) throw new X11Error('the X server has no XTest extension');
    const request = Buffer.alloc(36);
    request.writeUInt8(this.xtest, 0);
    request.writeUInt8(XTEST_FAKE_INPUT, 1);
    request.writeUInt16LE(9, 2);
    request.writeUInt8(type, 4);
    request.writeUInt8(detail, 5);
    request.writeUInt32LE(delayMs, 8);
    if (point) {
      request.writeUInt32LE(this.root, 12);
      request.writeInt16LE(point.x, 24);
      request.writeInt16LE(point.y, 26);
    }
    return request;
  }
}

/** WarpPointer from anywhere (src None) to `point` on the root window. */
function warp(root: number, point: ScreenPoint): Buffer {
  const request = Buffer.alloc(24);
  request.writeUInt8(OPCODE_WARP_POINTER, 0);
  request.writeUInt16LE(6, 2);
  request.writeUInt32LE(0, 4);
  request.writeUInt32LE(root, 8);
  request.writeInt16LE(point.x, 20);
  request.writeInt16LE(point.y, 22);
  return request;
}

const query = (root: number): Buffer => wordRequest(OPCODE_QUERY_POINTER, [root]);
