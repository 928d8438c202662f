/**
 * When the X11 backend serves: on every platform but macOS and Windows once DISPLAY is set
 * (XWayland included), unless the display's socket is not one this user can trust.
 */
import type { BackendChoice } from '../desktop-backend.js';
import { localX11Address, untrustedDisplay } from './x11-address.js';
import { X11Pointer } from './x11-pointer.js';

export const x11Choice: BackendChoice = {
  serves: (platform, env) => platform !== 'darwin' && platform !== 'win32' && !!env.DISPLAY,
  // a socket another user could have put there would get our cookie, from nut-js as from us
  problem: (env) => untrustedDisplay(env.DISPLAY),
  info: (env) => ({
    name: 'x11',
    limits: [
      ...(env.WAYLAND_DISPLAY
        ? ['this is XWayland inside a Wayland session: input reaches only X11 windows, and native Wayland windows capture black and are not listed']
        : []),
      ...(localX11Address(env.DISPLAY) ? [] : ['a remote X display: window tools and image clipboard need a local one']),
      'window tools need an EWMH window manager (every desktop has one)',
    ],
  }),
  load: async (platform, env) => (await import('./x11-backend.js')).loadX11Backend(platform, env),
  inProcessPointer: (env, timeoutMs) => X11Pointer.connect(env, timeoutMs),
};
