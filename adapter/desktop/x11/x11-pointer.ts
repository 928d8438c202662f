/**
 * The pointer moved and read in the server process over the X11 protocol: WarpPointer then
 * QueryPointer, which is what libnut does through Xlib, without the round trip to the desktop
 * worker. These are the calls a computer-use model makes most often. The code is plain protocol
 * over a socket, so it cannot crash the server the way native code can. Only a local X display
 * qualifies; anything else stays with the worker.
 */
import { adapterError } from '../../errors.js';
import { displayAt, toPhysical } from '../coordinates.js';
import type { PointerResult, PointerTarget, ScreenPoint, ScreenSize } from '../desktop-ops.js';
import { DisplayLayout } from '../display-layout.js';
import { localX11Address, readCookie, untrustedSocket } from './x11-address.js';
import { X11Connection, X11Error } from './x11-connection.js';

const OPCODE_WARP_POINTER = 41;
const OPCODE_QUERY_POINTER = 38;

export class X11Pointer {
  private constructor(
    private readonly connection: X11Connection,
    private readonly layout: DisplayLayout,
    private readonly timeoutMs: number,
  ) {}

  /** Connects to the display `env` names; rejects with the reason when it is not a local X display we can trust and reach. */
  static async connect(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<X11Pointer> {
    const address = localX11Address(env.DISPLAY);
    if (!address) throw new X11Error(`DISPLAY=${env.DISPLAY ?? ''} is not a local X display`);
    const untrusted = untrustedSocket(address.socketPath);
    if (untrusted) throw new X11Error(untrusted);
    const connection = await X11Connection.open(address.socketPath, address.screen, readCookie(env, address.display), timeoutMs);
    return new X11Pointer(connection, new DisplayLayout('linux', env), timeoutMs);
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  /** The whole desktop: the root window, kept current by the connection. */
  get desktop(): ScreenSize {
    return { width: this.connection.screen.width, height: this.connection.screen.height };
  }

  async move(target: PointerTarget, operation: string): Promise<PointerResult> {
    const desktop = this.desktop;
    const point = toPhysical(target, desktop, operation); // refuses a point outside before anything moves
    return this.located(await this.exchange([warp(this.connection.screen.root, point), query(this.connection.screen.root)], operation), desktop);
  }

  async position(operation: string): Promise<PointerResult> {
    return this.located(await this.exchange([query(this.connection.screen.root)], operation), this.desktop);
  }

  close(): void {
    this.connection.close();
  }

  private async exchange(requests: Buffer[], operation: string): Promise<ScreenPoint> {
    try {
      const reply = await this.connection.exchange(requests, this.timeoutMs);
      return { x: reply.readInt16LE(16), y: reply.readInt16LE(18) }; // QueryPointer: root-x, root-y
    } catch (error) {
      const message = (error as Error).message;
      throw adapterError(/did not answer within/.test(message) ? 'TIMEOUT' : 'OS_ERROR', operation, `${operation} failed: ${message}`);
    }
  }

  private async located(point: ScreenPoint, desktop: ScreenSize): Promise<PointerResult> {
    return { ...point, display: displayAt(point, await this.layout.of(desktop, 1)) };
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

function query(root: number): Buffer {
  const request = Buffer.alloc(8);
  request.writeUInt8(OPCODE_QUERY_POINTER, 0);
  request.writeUInt16LE(2, 2);
  request.writeUInt32LE(root, 4);
  return request;
}
