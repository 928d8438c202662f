/**
 * The tray's profile switch: profiles.active set in the saved config (the file stays the one
 * authority), then the server restarts with it, as "Pause writes" does. Electron-free.
 */
import { allProfiles, type ConfigInput } from '../config/schema.js';
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

/** The profile names the tray offers, built-in first, for the config in effect. */
export function profileNames(sets: Parameters<typeof allProfiles>[0]): string[] {
  return Object.keys(allProfiles(sets));
}
