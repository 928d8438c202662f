/**
 * Start at login on Linux, where Electron has no login-item API: an XDG autostart entry
 * (~/.config/autostart/chatgpt-mcp.desktop) that launches this executable (the AppImage file
 * itself when running from one, since its mount point changes every run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { APP_DIR_NAME } from '../config/app-dir.js';

export interface AutostartLocation {
  env: NodeJS.ProcessEnv;
  home: string;
}

export function autostartFile({ env, home }: AutostartLocation): string {
  const base = env.XDG_CONFIG_HOME && path.posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.posix.join(home, '.config');
  return path.posix.join(base, 'autostart', `${APP_DIR_NAME}.desktop`);
}

export function isAutostartEnabled(location: AutostartLocation): boolean {
  return fs.existsSync(autostartFile(location));
}

export function setAutostart(location: AutostartLocation, enabled: boolean, executable: string, name: string): void {
  const file = autostartFile(location);
  if (!enabled) {
    fs.rmSync(file, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, desktopEntry(executable, name), { mode: 0o644 });
}

/** Exec quoting per the Desktop Entry spec: double quotes, with " ` $ \ escaped. */
export function desktopEntry(executable: string, name: string): string {
  const exec = `"${executable.replace(/(["`$\\])/g, '\\$1')}"`;
  return ['[Desktop Entry]', 'Type=Application', `Name=${name}`, `Exec=${exec}`, 'X-GNOME-Autostart-enabled=true', 'Terminal=false', ''].join('\n');
}
