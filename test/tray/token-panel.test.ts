/** The window's view of the token: the one the server takes, where it lives, and Replace (with a restart). */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../main/config/load.js';
import { ensureBearerToken, tokenFilePath } from '../../main/config/token.js';
import type { ServerStatus } from '../../main/tray/bridge-api.js';
import { TokenPanel } from '../../main/tray/token-panel.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let dir: string;
let appDir: string;
let configPath: string;
const running: ServerStatus = { state: 'running', url: 'http://127.0.0.1:1/mcp', toolCount: 1, auth: true };
beforeEach(() => {
  dir = makeTempDir();
  appDir = path.join(dir, 'app');
  configPath = path.join(appDir, 'config.json');
});
afterEach(() => removeDir(dir));

function panel(env: NodeJS.ProcessEnv = {}, runningToken: string | null = null) {
  const restart = vi.fn(async () => running);
  const tokens = new TokenPanel({
    configPath,
    appDir,
    env,
    running: () => runningToken,
    readConfig: () => loadConfig({ env: { ...env, CHATGPT_MCP_CONFIG: configPath } }).config,
    restart,
  });
  return { tokens, restart };
}

describe('the token panel', () => {
  it('shows the token file’s token, the one the headless server and token show use', async () => {
    writeJson(configPath, {});
    const made = await ensureBearerToken(loadConfig({ env: { CHATGPT_MCP_CONFIG: configPath } }).config, appDir);
    expect(panel().tokens.current()).toEqual({
      token: made!.token,
      source: 'file',
      where: `Kept in ${tokenFilePath(appDir)}, the same token “chatgpt-mcp token show” prints.`,
    });
  });

  it('prefers the running server’s token, and says where a config or environment token comes from', () => {
    writeJson(configPath, { server: { token: 'c'.repeat(32) } });
    expect(panel().tokens.current()).toMatchObject({ token: 'c'.repeat(32), source: 'config', where: `Set in the config file (server.token): ${configPath}` });
    expect(panel({}, 'r'.repeat(32)).tokens.current().token).toBe('r'.repeat(32));
    expect(panel({ CHATGPT_MCP_TOKEN: 'e'.repeat(32) }).tokens.current()).toMatchObject({ token: 'e'.repeat(32), source: 'environment' });
    writeJson(configPath, { server: { auth: 'oauth', publicUrl: 'https://example.trycloudflare.com' } });
    expect(panel().tokens.current()).toMatchObject({ token: null, source: null });
  });

  it('replaces the token where it lives and restarts the server; refuses one set by the environment', async () => {
    writeJson(configPath, {});
    const before = await ensureBearerToken(loadConfig({ env: { CHATGPT_MCP_CONFIG: configPath } }).config, appDir);
    const { tokens, restart } = panel();
    const replaced = await tokens.replace();
    expect(replaced).toMatchObject({ ok: true, source: 'file', status: running });
    expect(replaced.ok && replaced.token).not.toBe(before!.token);
    expect(fs.readFileSync(tokenFilePath(appDir), 'utf8').trim()).toBe(replaced.ok && replaced.token);
    expect(restart).toHaveBeenCalledOnce();

    const env = panel({ CHATGPT_MCP_TOKEN: 'e'.repeat(32) });
    expect(await env.tokens.replace()).toEqual({ ok: false, error: 'The token in use comes from CHATGPT_MCP_TOKEN: change that variable where it is set.' });
    expect(env.restart).not.toHaveBeenCalled();
  });
});
