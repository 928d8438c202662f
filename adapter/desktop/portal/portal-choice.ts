/**
 * When the portal backend serves: a Linux Wayland session (WAYLAND_DISPLAY) whose compositor is
 * not a wlroots one (GNOME, KDE...), with a session bus for xdg-desktop-portal. It comes before
 * X11: on those desktops XWayland reaches only X11 windows. Nothing is asked of the owner
 * until the first screen or input call, when the portal shows its own consent dialog. A bus
 * socket that is not this user's (or root's), in a folder another user could swap it in, is
 * refused, as X11 and Wayland sockets are.
 */
import fs from 'node:fs';
import type { BackendChoice } from '../desktop-backend.js';
import { isWlrootsSession } from '../wlroots/wlroots-choice.js';
import { untrustedSocket } from '../x11/x11-address.js';
import { findSystemProgram } from '../wlroots/system-program.js';
import { restoreTokenFile } from './portal-session.js';

export const portalChoice: BackendChoice = {
  serves: (platform, env) => platform === 'linux' && !!env.WAYLAND_DISPLAY && !!env.DBUS_SESSION_BUS_ADDRESS && !isWlrootsSession(platform, env),
  // the keystrokes go to whoever answers on the bus: its socket must be ours (an abstract one cannot be checked)
  problem(env) {
    const socket = /(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? '')?.[1];
    const path = socket && decodeURIComponent(socket);
    const problem = path && fs.existsSync(path) ? untrustedSocket(path) : undefined; // no socket: the connection says so
    return problem ? `refusing the session bus DBUS_SESSION_BUS_ADDRESS names: ${problem}, so it may not be this session's` : undefined;
  },
  info(env) {
    const token = restoreTokenFile(env);
    const since = token && fs.existsSync(token) ? fs.statSync(token).mtime.toISOString().slice(0, 10) : undefined;
    return {
      name: 'wayland-portal',
      granted: since
        ? `the owner allowed remote control in the desktop's portal dialog (remembered since ${since}; revoke it in the desktop's privacy settings)`
        : "not yet: the first screen or input call shows the desktop's portal dialog, where the owner allows remote control once",
      limits: [
        'window tools are not available through the portal',
        ...(findSystemProgram('wl-paste') && findSystemProgram('wl-copy')
          ? [
              'on GNOME each clipboard call briefly maps a small surface of wl-clipboard to get the keyboard focus (GNOME has no clipboard protocol for other programs): the focused window loses the focus for a moment',
            ]
          : ['the clipboard needs wl-clipboard (wl-copy, wl-paste), which is not installed']),
        'characters beyond ASCII are sent as keysyms: GNOME types only those its keyboard layout has a key for and drops the others unseen',
        "the pointer's position is where this server last put it: Wayland tells no program where the pointer is",
        'every capture goes through the Screenshot portal (slower than X11)',
      ],
    };
  },
  load: async (_platform, env) => (await import('./portal-backend.js')).loadPortalBackend(env),
};
