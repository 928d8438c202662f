/**
 * The tray app's first start: with no config file yet, it writes one with the safe defaults,
 * so the settings window opens on a real file. It holds no token: the server's token lives in
 * the app's token file, created at the first start by whichever starts first, the tray or the
 * headless server, so both serve the same one (main/config/token.ts).
 */
import fs from 'node:fs';
import { saveConfig } from '../config/save.js';

/** Creates the config file when it does not exist; says whether it did. */
export async function ensureConfigFile(file: string): Promise<boolean> {
  if (fs.existsSync(file)) return false;
  await saveConfig(file, {});
  return true;
}
