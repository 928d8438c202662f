/**
 * The graphical session's environment, kept from the children of shell.exec while the owner has
 * NOT granted `desktop.hostDisplayAccess`: environment.ts strips it from the base environment,
 * and a caller may not put it back (rejected, not silently dropped). Removing it closes the easy
 * and the accidental paths to the display only: a child running as the same user can rebuild the
 * address (see capture-gate.ts for what that gate does and does not promise).
 */

/**
 * Environment variables that locate or unlock the graphical session. Kept even when a key looks
 * redundant, because each one alone is enough for some client library to reach the display:
 *
 * - X11: `DISPLAY` (server address), `XAUTHORITY` (cookie file), `XAUTHLOCALHOSTNAME` (SUSE's
 *   cookie lookup name).
 * - Wayland / Mir: `WAYLAND_DISPLAY`, `WAYLAND_SOCKET` (an inherited connected fd number),
 *   `MIR_SOCKET`.
 * - `XDG_RUNTIME_DIR`: without `WAYLAND_DISPLAY`, libwayland connects to `$XDG_RUNTIME_DIR/wayland-0`,
 *   and without `DBUS_SESSION_BUS_ADDRESS`, libdbus, GDBus and sd-bus fall back to
 *   `$XDG_RUNTIME_DIR/bus`. Removing it also hides the PipeWire socket. Cost: tools that keep
 *   other sockets there (pulseaudio, podman rootless, gpg-agent on some distros) lose them.
 * - Session D-Bus: `DBUS_SESSION_BUS_ADDRESS` reaches xdg-desktop-portal (Screenshot, ScreenCast,
 *   RemoteDesktop), org.gnome.Shell.Screenshot, KWin's screenshot interface.
 * - Accessibility bus: `AT_SPI_BUS_ADDRESS` reads every window's text and triggers UI actions.
 * - PipeWire: `PIPEWIRE_REMOTE`, `PIPEWIRE_RUNTIME_DIR` (screen-cast streams are PipeWire nodes).
 * - Compositor IPC: `SWAYSOCK`, `I3SOCK`, `HYPRLAND_INSTANCE_SIGNATURE`, `NIRI_SOCKET`. Each can
 *   `exec` a command inside the compositor's own environment, which has the display.
 *
 * Not included, on purpose: `XDG_SESSION_TYPE`, `XDG_CURRENT_DESKTOP`, `DESKTOP_SESSION`,
 * `GDK_BACKEND`, `QT_QPA_PLATFORM` are labels or backend choices that grant nothing.
 *
 * macOS: no variable gates the screen. A child inherits the Mach bootstrap namespace of the user's
 * login session, so CoreGraphics/ScreenCaptureKit and CGEvent work whenever the responsible app
 * (the tray app) holds the Screen Recording / Accessibility grants. Only `DISPLAY` (XQuartz)
 * matters and it is in the list. Windows: the desktop (WinSta0\Default) is inherited as a kernel
 * handle, so BitBlt and SendInput work for any same-session child; no variable changes that.
 * On both, the capture denylist (capture-gate.ts) is the only gate left.
 */
export const DISPLAY_ENV_KEYS: readonly string[] = Object.freeze([
  'DISPLAY',
  'XAUTHORITY',
  'XAUTHLOCALHOSTNAME',
  'WAYLAND_DISPLAY',
  'WAYLAND_SOCKET',
  'MIR_SOCKET',
  'XDG_RUNTIME_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'AT_SPI_BUS_ADDRESS',
  'PIPEWIRE_REMOTE',
  'PIPEWIRE_RUNTIME_DIR',
  'SWAYSOCK',
  'I3SOCK',
  'HYPRLAND_INSTANCE_SIGNATURE',
  'NIRI_SOCKET',
]);

// Case-insensitive: Windows environment names are, and `display` has no legitimate use elsewhere.
const displayKeys: ReadonlySet<string> = new Set(DISPLAY_ENV_KEYS.map((k) => k.toUpperCase()));

export function isDisplayEnvKey(key: string): boolean {
  return displayKeys.has(key.toUpperCase());
}

/** A copy of `env` without the graphical-session variables. */
export function scrubDisplayEnv<T extends Record<string, string | undefined>>(env: T): T {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) if (!isDisplayEnvKey(key)) out[key] = value;
  return out as T;
}

/** The caller-provided keys that must be rejected (not silently dropped) while the grant is off. */
export function displayEnvKeysIn(callerEnv: Readonly<Record<string, unknown>> | undefined): string[] {
  return callerEnv ? Object.keys(callerEnv).filter(isDisplayEnvKey) : [];
}
