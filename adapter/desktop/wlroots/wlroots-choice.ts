/**
 * When the wlroots backend serves: a Linux Wayland session (WAYLAND_DISPLAY) whose compositor
 * is a wlroots one, told by its IPC variable (SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE) or by
 * XDG_CURRENT_DESKTOP; it comes before X11, whose XWayland reaches only X11 windows. GNOME and
 * KDE lack these protocols (they offer xdg-desktop-portal's RemoteDesktop instead, which no
 * backend here speaks yet). The socket must be this user's (or root's), in a folder nobody else
 * can swap it in: keystrokes must not go to a compositor another user planted.
 */
import { untrustedSocket } from '../x11/x11-address.js';
import type { BackendChoice } from '../desktop-backend.js';
import { findGrim } from './grim-capture.js';
import { findSystemProgram } from './system-program.js';
import { waylandSocket } from './wayland-socket.js';

/** What tells a wlroots compositor's session apart (sway 1.7 sets no XDG_CURRENT_DESKTOP): the desktop's environment keeps them. */
export const WLROOTS_SESSION_VARIABLES = ['SWAYSOCK', 'HYPRLAND_INSTANCE_SIGNATURE'] as const;

const WLROOTS_DESKTOPS = /\b(sway|hyprland|river|wayfire|labwc|niri|dwl|wlroots)\b/i;

export function isWlrootsSession(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'linux' || !env.WAYLAND_DISPLAY) return false;
  return !!env.SWAYSOCK || !!env.HYPRLAND_INSTANCE_SIGNATURE || WLROOTS_DESKTOPS.test(env.XDG_CURRENT_DESKTOP ?? '');
}

export const wlrootsChoice: BackendChoice = {
  serves: isWlrootsSession,
  problem(env) {
    const socket = waylandSocket(env);
    if (!socket) return 'WAYLAND_DISPLAY is a name but XDG_RUNTIME_DIR is not set, so the Wayland socket cannot be found';
    const problem = untrustedSocket(socket);
    return problem ? `refusing WAYLAND_DISPLAY=${env.WAYLAND_DISPLAY}: ${problem}, so it may not be the compositor of this session` : undefined;
  },
  info: (env) => ({
    name: 'wayland-wlroots',
    limits: [
      env.SWAYSOCK
        ? "windows follow sway's tiling: minimize moves a window to the scratchpad, maximize is fullscreen, moving or resizing one makes it floating"
        : 'windows through the foreign-toplevel protocol where the compositor has it: no bounds or pid, no move or resize, and the compositor may ignore minimize or maximize',
      ...(findSystemProgram('wl-paste') && findSystemProgram('wl-copy')
        ? []
        : ['the clipboard needs wl-clipboard (wl-copy, wl-paste), which is not installed']),
      "the pointer's position is where this server last put it: Wayland tells no program where the pointer is",
      'ui.snapshot sees only applications on the AT-SPI bus',
      ...(findGrim() ? [] : ['screen capture needs grim, which is not installed']),
    ],
  }),
  load: async (_platform, env) => (await import('./wlroots-backend.js')).loadWlrootsBackend(env),
};
