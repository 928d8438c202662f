/**
 * Whether this process can reach a graphical session at all, decided from the environment
 * before any native code loads: libnut segfaults (exit 139, "Could not open main display")
 * when X11 is missing. macOS and Windows always have a session for a logged-in user.
 */
import { untrustedDisplay } from './x11/x11-address.js';

export function missingDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | undefined {
  if (platform === 'darwin' || platform === 'win32') return undefined;
  // a socket another user could have put there would get our cookie, from nut-js as from us
  if (env.DISPLAY) return untrustedDisplay(env.DISPLAY);
  if (env.WAYLAND_DISPLAY) {
    return 'only a Wayland display is set (WAYLAND_DISPLAY) and screen and input tools need X11: start the server inside a session with XWayland so DISPLAY is set';
  }
  return 'no graphical display: set DISPLAY (an X11 or XWayland display, e.g. run the server inside the desktop session); screen and input tools cannot work without one';
}
