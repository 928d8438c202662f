/**
 * When the X11 backend serves: on every platform but macOS and Windows once DISPLAY is set
 * (XWayland included), unless the display's socket is not one this user can trust.
 */
import type { BackendChoice } from '../desktop-backend.js';
import { untrustedDisplay } from './x11-address.js';
import { X11Pointer } from './x11-pointer.js';

export const x11Choice: BackendChoice = {
  serves: (platform, env) => platform !== 'darwin' && platform !== 'win32' && !!env.DISPLAY,
  // a socket another user could have put there would get our cookie, from nut-js as from us
  problem: (env) => untrustedDisplay(env.DISPLAY),
  load: async (platform, env) => (await import('./x11-backend.js')).loadX11Backend(platform, env),
  inProcessPointer: (env, timeoutMs) => X11Pointer.connect(env, timeoutMs),
};
