/**
 * Windows on a wlroots compositor without sway's IPC (Hyprland, labwc, Wayfire, niri, ...),
 * through wlr-foreign-toplevel-management-unstable-v1 on our own Wayland connection: the
 * compositor announces every top-level window (title, app id, the outputs it is on, its state)
 * and takes requests to activate, (un)maximize, (un)minimize, leave fullscreen or close one.
 * The protocol tells no window's place, size or process: windows are listed without bounds or
 * pid (their display comes from the output they are on), and window.move_resize is refused.
 * A compositor may ignore a request (sway ignores minimize and maximize); the answer then shows
 * the window as it stayed. Ids are ours, never reused, so an id never names a later window.
 */
import { adapterError } from '../../contract/errors.js';
import type { WindowAction } from '../../contract/desktop.js';
import type { BackendWindow, WindowBackend } from '../desktop-backend.js';
import { actionDone, knownWindow, settle } from '../window-settle.js';
import { readString, type WaylandConnection } from './wayland-connection.js';

export const FOREIGN_TOPLEVEL_MANAGER = 'zwlr_foreign_toplevel_manager_v1';

/** Requests of zwlr_foreign_toplevel_handle_v1, by opcode. */
const REQUEST = { setMaximized: 0, unsetMaximized: 1, setMinimized: 2, unsetMinimized: 3, activate: 4, close: 5, destroy: 7, unsetFullscreen: 9 } as const;
/** Its events. */
const EVENT = { title: 0, appId: 1, outputEnter: 2, outputLeave: 3, state: 4, done: 5, closed: 6 } as const;
/** Values of its state array. */
const STATE = { maximized: 0, minimized: 1, activated: 2, fullscreen: 3 } as const;
/** Version 2 added fullscreen; 3 a parent event this module does not need. */
const VERSION = 2;

interface Toplevel {
  id: string;
  handle: number;
  title: string;
  app: string;
  outputs: Set<number>;
  states: Set<number>;
  /** Announced completely (a first `done`): listed only then. */
  complete: boolean;
}

/** The window backend over the compositor's foreign-toplevel manager, or undefined when it offers none. */
export async function foreignToplevels(
  connection: WaylandConnection,
  seat: number | undefined,
  outputName: (output: number) => string | undefined,
): Promise<WindowBackend | undefined> {
  const global = connection.globals.find((g) => g.interface === FOREIGN_TOPLEVEL_MANAGER);
  const manager = connection.bind(FOREIGN_TOPLEVEL_MANAGER, VERSION);
  if (manager === undefined || !global) return undefined;
  const version = Math.min(VERSION, global.version);
  const toplevels = new Map<number, Toplevel>();
  let count = 0;
  connection.listen(manager, (opcode, body) => {
    if (opcode !== 0) return; // 1: finished, the compositor stopped telling: the list just stops changing
    const handle = body.readUInt32LE(0);
    const toplevel: Toplevel = { id: `w${++count}`, handle, title: '', app: '', outputs: new Set(), states: new Set(), complete: false };
    toplevels.set(handle, toplevel);
    connection.listen(handle, (event, args) => {
      if (event === EVENT.title) toplevel.title = readString(args, 0).value;
      else if (event === EVENT.appId) toplevel.app = readString(args, 0).value;
      else if (event === EVENT.outputEnter) toplevel.outputs.add(args.readUInt32LE(0));
      else if (event === EVENT.outputLeave) toplevel.outputs.delete(args.readUInt32LE(0));
      else if (event === EVENT.state) toplevel.states = statesOf(args);
      else if (event === EVENT.done) toplevel.complete = true;
      else if (event === EVENT.closed) {
        toplevels.delete(handle);
        connection.forget(handle);
        if (!connection.closed) connection.request(handle, REQUEST.destroy);
      }
    });
  });
  await connection.roundtrip(); // the windows open now, each announced before the answer

  const failed = (operation: string, error: unknown) =>
    adapterError('OS_ERROR', operation, `the compositor's foreign-toplevel protocol failed: ${(error as Error).message}`);
  const list = async (operation: string): Promise<BackendWindow[]> => {
    try {
      await connection.roundtrip();
    } catch (error) {
      throw failed(operation, error);
    }
    return [...toplevels.values()].filter((t) => t.complete).map((t) => windowOf(t, outputName));
  };
  const send = (handle: number, operation: string, ...requests: Array<{ opcode: number; args?: Array<{ u: number }> }>) => {
    try {
      for (const { opcode, args } of requests) connection.request(handle, opcode, args);
    } catch (error) {
      throw failed(operation, error);
    }
  };
  return {
    list,
    async act(id, action, operation) {
      const window = await knownWindow(list, id, operation);
      const toplevel = [...toplevels.values()].find((t) => t.id === window.id);
      if (!toplevel) throw adapterError('NOT_FOUND', operation, `no window ${id} (it closed meanwhile): window.list names the windows`);
      send(toplevel.handle, operation, ...requestsFor(action, toplevel, seat, version));
      await settle(list, id, operation, (w) => actionDone(action, w));
    },
    async moveResize(_id, _placement, operation) {
      throw adapterError(
        'PRECONDITION_FAILED',
        operation,
        "this compositor's window protocol (wlr foreign-toplevel) cannot move or resize windows; on sway, start the server with SWAYSOCK set",
      );
    },
  };
}

function requestsFor(
  action: WindowAction,
  toplevel: Toplevel,
  seat: number | undefined,
  version: number,
): Array<{ opcode: number; args?: Array<{ u: number }> }> {
  const activate = seat === undefined ? [] : [{ opcode: REQUEST.activate, args: [{ u: seat }] }];
  const unminimize = toplevel.states.has(STATE.minimized) ? [{ opcode: REQUEST.unsetMinimized }] : [];
  switch (action) {
    case 'focus':
      return [...unminimize, ...activate];
    case 'minimize':
      return [{ opcode: REQUEST.setMinimized }];
    case 'maximize':
      return [{ opcode: REQUEST.setMaximized }];
    case 'restore':
      return [
        ...unminimize,
        ...(toplevel.states.has(STATE.maximized) ? [{ opcode: REQUEST.unsetMaximized }] : []),
        ...(toplevel.states.has(STATE.fullscreen) && version >= 2 ? [{ opcode: REQUEST.unsetFullscreen }] : []),
        ...activate,
      ];
    case 'close':
      return [{ opcode: REQUEST.close }];
  }
}

/** A state event's array: its byte length, then 32-bit values. */
function statesOf(args: Buffer): Set<number> {
  const bytes = args.readUInt32LE(0);
  const states = new Set<number>();
  for (let at = 4; at + 4 <= 4 + bytes && at + 4 <= args.length; at += 4) states.add(args.readUInt32LE(at));
  return states;
}

function windowOf(t: Toplevel, outputName: (output: number) => string | undefined): BackendWindow {
  const output = [...t.outputs].map(outputName).find((name) => name !== undefined);
  return {
    id: t.id,
    title: t.title,
    app: t.app,
    pid: null,
    bounds: null,
    focused: t.states.has(STATE.activated),
    minimized: t.states.has(STATE.minimized),
    // fullscreen counts: restore leaves both, and sway's own backend calls fullscreen maximized too
    maximized: t.states.has(STATE.maximized) || t.states.has(STATE.fullscreen),
    ...(output === undefined ? {} : { displayName: output }),
  };
}
