/**
 * The settings window's Save: the whole config written at once (validated first, so an invalid
 * one writes nothing), and a result the window can show field by field. Electron-free.
 */
import { ConfigReadOnlyError, ConfigValidationError, saveConfig } from '../config/save.js';
import type { Logger } from '../log.js';
import type { SaveResult } from './bridge-api.js';

export async function saveSettings(configPath: string, config: Record<string, unknown>, log: Logger): Promise<SaveResult> {
  try {
    await saveConfig(configPath, config);
    log.info('config saved', { file: configPath });
    return { ok: true, configPath };
  } catch (error) {
    if (error instanceof ConfigValidationError) return { ok: false, issues: error.issues, error: 'Some settings are invalid; nothing was saved.' };
    if (error instanceof ConfigReadOnlyError) return { ok: false, issues: [], error: error.message };
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    return { ok: false, issues: [], error: `Could not write ${configPath} (${code}).` };
  }
}
