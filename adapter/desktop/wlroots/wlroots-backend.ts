/**
 * The desktop backend of a wlroots compositor: one Wayland connection of our own for the
 * outputs, a virtual pointer and a virtual keyboard (wlroots-input.ts), grim for captures and
 * wl-clipboard for the clipboard.
 * Typing needs no clipboard here: characters beyond ASCII are keys of our own keymap, so the
 * paste fallback types them instead. Windows through sway's IPC where it is sway, else the
 * foreign-toplevel protocol where the compositor has it (foreign-toplevels.ts). What it cannot do
 * is what wlroots-choice.ts tells system.info.
 */
import type { DesktopBackend } from '../desktop-backend.js';
import { grimGrab } from './grim-capture.js';
import { WaylandConnection } from './wayland-connection.js';
import { wlrootsKeyboard, wlrootsPointer } from './wlroots-input.js';
import { WlrootsOutputs } from './wlroots-outputs.js';
import { swayWindows } from './sway-windows.js';
import { foreignToplevels } from './foreign-toplevels.js';
import { wlClipboardRead, wlClipboardWrite } from './wl-clipboard.js';
import { waylandSocket } from './wayland-socket.js';

export async function loadWlrootsBackend(env: NodeJS.ProcessEnv): Promise<DesktopBackend> {
  const socket = waylandSocket(env);
  if (!socket) throw new Error('WAYLAND_DISPLAY names no socket (XDG_RUNTIME_DIR is not set)');
  const connection = await WaylandConnection.open(socket);
  const outputs = await WlrootsOutputs.read(connection);
  const seat = connection.bind('wl_seat', 1);
  const pointer = wlrootsPointer(connection, outputs, seat);
  const keyboard = wlrootsKeyboard(connection, seat);
  await connection.roundtrip(); // a compositor refusing the devices says so now
  const windows = env.SWAYSOCK ? swayWindows(env.SWAYSOCK) : await foreignToplevels(connection, seat, (id) => outputs.nameOf(id));
  return {
    screen: {
      size: async () => outputs.size(),
      scaleFactor: async () => outputs.scale(),
      grab: (area) => grimGrab(env, area, 'screen.capture'),
      displays: async () => outputs.displays(),
    },
    pointer,
    keyboard,
    ...(windows ? { windows } : {}),
    clipboard: {
      // typing needs no clipboard: the keymap types any character
      async paste(text) {
        await keyboard.typeText(text);
        return 'fetched';
      },
      read: (options, operation) => wlClipboardRead(env, options, operation),
      write: (content, operation) => wlClipboardWrite(env, content, operation),
    },
  };
}
