/**
 * The tray's "Pause writes": server.readOnly flipped in the saved config (the file stays the one
 * authority), then the server restarts with it. Electron-free.
 */
import type { ConfigInput } from '../config/schema.js';
import { saveConfig } from '../config/save.js';
import type { Logger } from '../log.js';
import { readConfigForEditing } from './config-file.js';

/** Saves the opposite of `running` (server.readOnly in effect now); false when the file could not be changed. */
export async function savePauseWrites(configPath: string, running: boolean, log: Logger): Promise<boolean> {
  const saved = readConfigForEditing(configPath);
  if (saved.fileError) {
    log.warn('cannot change server.readOnly: the config file cannot be read', { file: configPath });
    return false;
  }
  const config = saved.config as ConfigInput;
  const readOnly = !running;
  try {
    await saveConfig(configPath, { ...config, server: { ...config.server, readOnly } });
  } catch (error) {
    log.warn('cannot change server.readOnly', { reason: (error as Error).message.replace(/\s*\n\s*/g, ' ') });
    return false;
  }
  log.info(readOnly ? 'writes paused: tools that change things are hidden' : 'writes resumed');
  return true;
}
