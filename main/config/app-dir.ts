/**
 * Where this app keeps its files on each OS: the config file shared by the tray app and the
 * CLI, and beside it the state the server writes itself (the generated token, OAuth clients,
 * the tunnel key file). Everything is a parameter so tests never look at the real home.
 */
import path from 'node:path';

export const APP_DIR_NAME = 'chatgpt-mcp';
/** Electron's userData folder is named after the product (electron-builder productName). */
export const PRODUCT_NAME = 'ChatGPT Computer MCP';

export interface Place {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** The folder holding config.json and the server's own state files. */
export function appConfigDir({ platform, env, home }: Place): string {
  if (platform === 'win32') return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  return path.posix.join(xdgConfigHome(env, home), APP_DIR_NAME);
}

export function defaultConfigPath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const dir = appConfigDir({ platform, env, home });
  return platform === 'win32' ? path.win32.join(dir, 'config.json') : path.posix.join(dir, 'config.json');
}

/**
 * Every folder of this app that holds secrets, in every spelling this OS may use for it (the
 * tray and the CLI can run with different XDG settings): the app folder, its fallback under
 * ~/.config, and Electron's userData folder. No tool may read, write, list or move into these.
 */
export function protectedAppDirs(place: Place): string[] {
  const { platform, env, home } = place;
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const bases =
    platform === 'win32'
      ? [env.APPDATA || join(home, 'AppData', 'Roaming'), env.LOCALAPPDATA || join(home, 'AppData', 'Local')]
      : platform === 'darwin'
        ? [join(home, 'Library', 'Application Support')]
        : [xdgConfigHome(env, home), join(home, '.config')];
  const dirs = bases.flatMap((base) => [join(base, APP_DIR_NAME), join(base, PRODUCT_NAME)]);
  return [...new Set(dirs)];
}

function xdgConfigHome(env: NodeJS.ProcessEnv, home: string): string {
  return env.XDG_CONFIG_HOME && path.posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.posix.join(home, '.config');
}
