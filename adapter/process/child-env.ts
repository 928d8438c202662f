/**
 * The short environment every program the adapter starts begins from: shell.exec children (the
 * policy adds to it, see main/policy/environment.ts), apps, the browser opener, service managers,
 * process listers, tree kill and display probes. No child inherits the server's whole
 * environment: that would hand the owner's API keys and this server's token to any `env` call.
 * It gets the variables programs need to start and find the user's session, nothing else.
 */

/** Inherited from the server, when set. Display variables are removed later when display access is off. */
const INHERITED: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'DBUS_SESSION_BUS_ADDRESS',
  // Desktop integration labels that openers (xdg-open) use to pick the right handler.
  'XDG_CURRENT_DESKTOP',
  'XDG_SESSION_TYPE',
  'XDG_SESSION_DESKTOP',
  'DESKTOP_SESSION',
  'XDG_DATA_DIRS',
  'XDG_CONFIG_DIRS',
  'BROWSER',
  // Windows essentials: many programs fail to start without these.
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'WINDIR',
  'ComSpec',
  'COMSPEC',
  'PATHEXT',
  'Path',
  'USERPROFILE',
  'USERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
]);
const INHERITED_PREFIXES = ['LC_'];

/** The short environment taken from `serverEnv` (the server's own, or the one a test chose). */
export function shortEnvironment(serverEnv: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(serverEnv)) {
    if (value === undefined) continue;
    if (INHERITED.has(key) || INHERITED_PREFIXES.some((prefix) => key.startsWith(prefix))) env[key] = value;
  }
  return env;
}

/**
 * For the adapter's own helpers whose output is parsed or quoted (ps, PowerShell, taskkill,
 * systemctl, launchctl, sc.exe, xrandr): the short environment in the C locale.
 */
export function helperEnvironment(serverEnv: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  return { ...shortEnvironment(serverEnv), LC_ALL: 'C', LANG: 'C' };
}
