/**
 * Top-level windows through the window manager's EWMH properties and messages, from our own X
 * connection: _NET_CLIENT_LIST and _NET_ACTIVE_WINDOW on the root; each window's _NET_WM_NAME
 * (or WM_NAME), WM_CLASS, _NET_WM_PID and _NET_WM_STATE; its place from GetGeometry and
 * TranslateCoordinates. Actions are the client messages a pager sends (source indication 2), so
 * the window manager stays in charge: _NET_ACTIVE_WINDOW, WM_CHANGE_STATE (iconify),
 * _NET_WM_STATE (maximize), _NET_MOVERESIZE_WINDOW and _NET_CLOSE_WINDOW. Without an EWMH window
 * manager there is no client list, and the calls say so.
 */
import type { WindowAction, WindowPlacement } from '../../contract/desktop.js';
import type { BackendWindow, WindowBackend } from '../desktop-backend.js';
import { actionDone, knownWindow, placementDone, settle } from '../window-settle.js';
import { adapterError } from '../../contract/errors.js';
import { nameRequest, wordRequest, X11Connection } from './x11-connection.js';

const OPCODE_GET_GEOMETRY = 14;
const OPCODE_INTERN_ATOM = 16;
const OPCODE_GET_PROPERTY = 20;
const OPCODE_SEND_EVENT = 25;
const OPCODE_TRANSLATE_COORDINATES = 40;
const OPCODE_GET_INPUT_FOCUS = 43;
const EVENT_CLIENT_MESSAGE = 33;
const SUBSTRUCTURE_MASKS = 0x80000 | 0x100000;
const ATOM_STRING = 31;
const ICONIC_STATE = 3;
const SOURCE_PAGER = 2;
const STATIC_GRAVITY = 10;
const MAX_WINDOWS = 200;
const NAMES = [
  '_NET_CLIENT_LIST',
  '_NET_ACTIVE_WINDOW',
  '_NET_WM_NAME',
  'UTF8_STRING',
  'WM_CLASS',
  'WM_NAME',
  '_NET_WM_PID',
  '_NET_WM_STATE',
  '_NET_WM_STATE_HIDDEN',
  '_NET_WM_STATE_MAXIMIZED_VERT',
  '_NET_WM_STATE_MAXIMIZED_HORZ',
  '_NET_CLOSE_WINDOW',
  '_NET_MOVERESIZE_WINDOW',
  'WM_CHANGE_STATE',
] as const;
type Atoms = Record<(typeof NAMES)[number], number>;

export class X11Windows implements WindowBackend {
  private constructor(
    private readonly connection: X11Connection,
    private readonly atoms: Atoms,
    private readonly timeoutMs: number,
  ) {}

  static async connect(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<X11Windows> {
    const connection = await X11Connection.openLocal(env, timeoutMs);
    const replies = await Promise.all(NAMES.map((name) => connection.exchange([nameRequest(OPCODE_INTERN_ATOM, name)], timeoutMs)));
    return new X11Windows(connection, Object.fromEntries(NAMES.map((n, i) => [n, replies[i]!.readUInt32LE(8)])) as Atoms, timeoutMs);
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  readonly list = async (operation: string): Promise<BackendWindow[]> => {
    const root = this.connection.screen.root;
    const clients = await this.property(root, this.atoms._NET_CLIENT_LIST, 4 * MAX_WINDOWS);
    if (!clients) {
      throw adapterError(
        'PRECONDITION_FAILED',
        operation,
        'no EWMH window manager runs on this display (the root has no _NET_CLIENT_LIST); window tools need one',
      );
    }
    const active = (await this.property(root, this.atoms._NET_ACTIVE_WINDOW, 4))?.data.readUInt32LE(0) ?? 0;
    const ids = words(clients.data);
    const windows = await Promise.all(ids.map((id) => this.describe(id, id === active).catch(() => undefined)));
    return windows.filter((w): w is BackendWindow => w !== undefined);
  };

  async act(id: string, action: WindowAction, operation: string): Promise<void> {
    const window = await this.known(id, operation);
    const { atoms } = this;
    const state = (add: 0 | 1) =>
      this.message(window, atoms._NET_WM_STATE, [add, atoms._NET_WM_STATE_MAXIMIZED_VERT, atoms._NET_WM_STATE_MAXIMIZED_HORZ, SOURCE_PAGER]);
    if (action === 'focus') await this.message(window, atoms._NET_ACTIVE_WINDOW, [SOURCE_PAGER, 0, 0]);
    else if (action === 'minimize') await this.message(window, atoms.WM_CHANGE_STATE, [ICONIC_STATE]);
    else if (action === 'maximize') await state(1);
    else if (action === 'close') await this.message(window, atoms._NET_CLOSE_WINDOW, [0, SOURCE_PAGER]);
    else {
      await state(0);
      await this.message(window, atoms._NET_ACTIVE_WINDOW, [SOURCE_PAGER, 0, 0]); // maps a minimized window again
    }
    await settle(this.list, id, operation, (w) => actionDone(action, w));
  }

  async moveResize(id: string, placement: WindowPlacement, operation: string): Promise<void> {
    const window = await this.known(id, operation);
    const fields: Array<keyof WindowPlacement> = ['x', 'y', 'width', 'height'];
    let flags = STATIC_GRAVITY | (SOURCE_PAGER << 12);
    fields.forEach((field, i) => {
      if (placement[field] !== undefined) flags |= 1 << (8 + i);
    });
    await this.message(window, this.atoms._NET_MOVERESIZE_WINDOW, [flags, ...fields.map((f) => placement[f] ?? 0)]);
    await settle(this.list, id, operation, (w) => placementDone(placement, w));
  }

  close(): void {
    this.connection.close();
  }

  /** The window with this id among the manager's clients: nothing else may be sent messages. */
  private async known(id: string, operation: string): Promise<number> {
    await knownWindow(this.list, id, operation);
    return Number.parseInt(id, 16);
  }

  private async describe(window: number, focused: boolean): Promise<BackendWindow> {
    const { atoms } = this;
    const [netName, name, wmClass, pid, state, geometry, origin] = await Promise.all([
      this.property(window, atoms._NET_WM_NAME, 4096),
      this.property(window, atoms.WM_NAME, 4096),
      this.property(window, atoms.WM_CLASS, 1024),
      this.property(window, atoms._NET_WM_PID, 4),
      this.property(window, atoms._NET_WM_STATE, 64),
      this.connection.exchange([wordRequest(OPCODE_GET_GEOMETRY, [window])], this.timeoutMs),
      this.connection.exchange([translate(window, this.connection.screen.root)], this.timeoutMs),
    ]);
    const states = state ? words(state.data) : [];
    const title = netName ? netName.data.toString('utf8') : name?.type === ATOM_STRING ? name.data.toString('latin1') : (name?.data.toString('utf8') ?? '');
    const [, windowClass = ''] = (wmClass?.data.toString('latin1') ?? '').split('\0');
    return {
      id: `0x${window.toString(16)}`,
      title,
      app: windowClass,
      pid: pid && pid.data.length >= 4 ? pid.data.readUInt32LE(0) : null,
      bounds: { x: origin.readInt16LE(12), y: origin.readInt16LE(14), width: geometry.readUInt16LE(16), height: geometry.readUInt16LE(18) },
      focused,
      minimized: states.includes(atoms._NET_WM_STATE_HIDDEN),
      maximized: states.includes(atoms._NET_WM_STATE_MAXIMIZED_VERT) && states.includes(atoms._NET_WM_STATE_MAXIMIZED_HORZ),
    };
  }

  /** A property's bytes (at most `maxBytes`), or undefined when the window has none. */
  private async property(window: number, property: number, maxBytes: number): Promise<{ type: number; data: Buffer } | undefined> {
    const reply = await this.connection.exchange([wordRequest(OPCODE_GET_PROPERTY, [window, property, 0, 0, Math.ceil(maxBytes / 4)])], this.timeoutMs);
    const type = reply.readUInt32LE(8);
    if (type === 0) return undefined;
    const format = reply[1]!;
    return { type, data: Buffer.from(reply.subarray(32, 32 + reply.readUInt32LE(16) * (format / 8))) };
  }

  /** A client message to the root, as EWMH has pagers send them; the reply after it means the server took it. */
  private async message(window: number, type: number, data: number[]): Promise<void> {
    const event = Buffer.alloc(32);
    event.writeUInt8(EVENT_CLIENT_MESSAGE, 0);
    event.writeUInt8(32, 1);
    event.writeUInt32LE(window, 4);
    event.writeUInt32LE(type, 8);
    data.forEach((word, i) => event.writeUInt32LE(word >>> 0, 12 + i * 4));
    const request = Buffer.alloc(44);
    request.writeUInt8(OPCODE_SEND_EVENT, 0);
    request.writeUInt16LE(11, 2);
    request.writeUInt32LE(this.connection.screen.root, 4);
    request.writeUInt32LE(SUBSTRUCTURE_MASKS, 8);
    event.copy(request, 12);
    await this.connection.exchange([request, wordRequest(OPCODE_GET_INPUT_FOCUS, [])], this.timeoutMs);
  }
}

const words = (data: Buffer) => Array.from({ length: Math.floor(data.length / 4) }, (_, i) => data.readUInt32LE(i * 4));

/** Where the window's (0,0) is on the root (src-x and src-y are the last word: 0, 0). */
const translate = (window: number, root: number) => wordRequest(OPCODE_TRANSLATE_COORDINATES, [window, root, 0]);
