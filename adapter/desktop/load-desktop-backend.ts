/**
 * Picks the desktop backend for the platform and session, as load-accessibility-provider.ts picks
 * the accessibility provider: the first choice that serves the session wins. Decided from the
 * environment alone, before any native code loads (libnut segfaults, exit 139 "Could not open
 * main display", when X11 is missing). A new backend is a folder with its BackendChoice, and a
 * line in BACKENDS.
 */
import type { BackendChoice, DesktopBackend } from './desktop-backend.js';
import { nutChoice } from './nut/nut-choice.js';
import { portalChoice } from './portal/portal-choice.js';
import { wlrootsChoice } from './wlroots/wlroots-choice.js';
import { x11Choice } from './x11/x11-choice.js';

const BACKENDS: readonly BackendChoice[] = [wlrootsChoice, portalChoice, x11Choice, nutChoice];

/** The backend that serves the session `env` names, or undefined. */
export function chooseBackend(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): BackendChoice | undefined {
  return BACKENDS.find((choice) => choice.serves(platform, env));
}

/** Why screen and input tools cannot work in this session, or undefined when a backend serves it. */
export function sessionProblem(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | undefined {
  const choice = chooseBackend(platform, env);
  if (choice) return choice.problem?.(env);
  if (env.WAYLAND_DISPLAY) {
    return 'only a Wayland display is set (WAYLAND_DISPLAY), without the session bus (DBUS_SESSION_BUS_ADDRESS) that xdg-desktop-portal answers on, and the compositor is not a wlroots one (sway, Hyprland, river...): start the server inside the desktop session';
  }
  return 'no graphical display: set DISPLAY (an X11 or XWayland display, e.g. run the server inside the desktop session); screen and input tools cannot work without one';
}

/** The session's backend, in the desktop worker; throws the session's problem when there is none. */
export async function loadDesktopBackend(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<DesktopBackend> {
  const choice = chooseBackend(platform, env);
  if (!choice) throw new Error(sessionProblem(platform, env));
  return choice.load(platform, env);
}
