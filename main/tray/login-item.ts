/** "Start at login": Electron's login items on macOS and Windows, XDG autostart on Linux. */
import type { App } from 'electron';
import os from 'node:os';
import { isAutostartEnabled, setAutostart } from './autostart-linux.js';
import { APP_TITLE } from './tray-state.js';

export interface LoginItem {
  /** Current state, or null where this platform has no way to do it. */
  get(): boolean | null;
  set(enabled: boolean): void;
}

export function loginItem(app: App, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): LoginItem {
  if (platform === 'darwin' || platform === 'win32') {
    return {
      get: () => app.getLoginItemSettings().openAtLogin,
      set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
    };
  }
  if (platform === 'linux' && app.isPackaged) {
    const location = { env, home: os.homedir() };
    const executable = env.APPIMAGE || process.execPath;
    return {
      get: () => isAutostartEnabled(location),
      set: (enabled) => setAutostart(location, enabled, executable, APP_TITLE),
    };
  }
  // Unpackaged (development) runs would register the bare Electron binary: offer nothing.
  return { get: () => null, set: () => {} };
}
