/**
 * The tray's profile switch: profiles.active set in the saved config (the file stays the one
 * authority), then the server restarts with it, as "Pause writes" does. Electron-free.
 */
import { allProfiles, type Config, type ConfigInput } from '../config/schema.js';
import { saveConfig } from '../config/save.js';
import type { Logger } from '../log.js';
import { readConfigForEditing } from './config-file.js';

/** Saves `name` as the active profile; false when the file could not be changed (or names no such profile). */
export async function saveActiveProfile(configPath: string, name: string, log: Logger): Promise<boolean> {
  const saved = readConfigForEditing(configPath);
  if (saved.fileError) {
    log.warn('cannot change profiles.active: the config file cannot be read', { file: configPath });
    return false;
  }
  const config = saved.config as ConfigInput;
  try {
    await saveConfig(configPath, { ...config, profiles: { ...config.profiles, active: name } });
  } catch (error) {
    log.warn('cannot change profiles.active', { reason: (error as Error).message.replace(/\s*\n\s*/g, ' ') });
    return false;
  }
  log.info(`profile "${name}" is active`);
  return true;
}

/** The profiles the tray offers (built-in first) and the active one, for the config in effect; null without one. */
export function menuProfiles(config: Readonly<Config> | null): { names: string[]; active: string } | null {
  return config && { names: Object.keys(allProfiles(config.profiles.sets)), active: config.profiles.active };
}

/** The menu's choice: saved, then the server restarts with it; choosing the active one does nothing. */
export async function switchProfile(
  configPath: string,
  server: { readonly config: Readonly<Config> | null; restart(): unknown },
  name: string | undefined,
  log: Logger,
): Promise<void> {
  if (!name || name === server.config?.profiles.active) return;
  if (await saveActiveProfile(configPath, name, log)) await server.restart();
}
