/**
 * The tray app's first start: with no config file yet, it writes one holding a fresh token,
 * so the server it starts is never open to every local program. The headless CLI leaves this
 * to the owner (CHATGPT_MCP_TOKEN), since it may run where nobody can read the token back.
 */
import fs from 'node:fs';
import { saveConfig } from '../config/save.js';
import { generateToken } from '../config/token.js';

/** Creates the config file with a token when it does not exist; says whether it did. */
export async function ensureConfigFile(file: string): Promise<boolean> {
  if (fs.existsSync(file)) return false;
  await saveConfig(file, { server: { token: generateToken() } });
  return true;
}
