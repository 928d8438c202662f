import path from 'node:path';

export const APP_DIR_NAME = 'chatgpt-mcp';

/**
 * The per-OS config file shared by the tray app and the CLI. Everything it depends on is a
 * parameter so tests never look at the real home directory.
 */
export function defaultConfigPath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') {
    const appData = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, APP_DIR_NAME, 'config.json');
  }
  if (platform === 'darwin') {
    return path.posix.join(home, 'Library', 'Application Support', APP_DIR_NAME, 'config.json');
  }
  const xdg = env.XDG_CONFIG_HOME && path.posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.posix.join(home, '.config');
  return path.posix.join(xdg, APP_DIR_NAME, 'config.json');
}
