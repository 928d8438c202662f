/**
 * The Connection page's token in real headless Chromium, wired to the tray's TokenPanel over
 * real files: it shows and copies the token the server takes (the token file `token show`
 * prints), and Replace asks first, saying what it breaks, then writes a new token where the
 * old one lived and restarts. Screenshots go to test-artifacts/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../main/config/load.js';
import { ensureBearerToken, tokenFilePath } from '../../../../main/config/token.js';
import type { ServerStatus } from '../../../../main/tray/bridge-api.js';
import { TokenPanel } from '../../../../main/tray/token-panel.js';
import { childEnv, runCli } from '../../../helpers/servers.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { openPage, type OpenWindow, SCREENSHOTS, serveWindow, loadSnapshot } from '../../helpers/window-harness.js';

describe.skipIf(!chromiumAvailable())('the token on the Connection page in headless Chromium', () => {
  let temp: string;
  let home: string;
  let appDir: string;
  let configPath: string;
  let window: OpenWindow;
  let browser: Browser;
  let pageUrl: string;
  /** The token the "running server" took at its last start. */
  let serving: string | null = null;
  let restarts = 0;
  const copied: string[] = [];
  const errors: string[] = [];
  const status: ServerStatus = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 4, auth: true };
  const env = () => childEnv(home, { CHATGPT_MCP_CONFIG: configPath });
  const readConfig = () => loadConfig({ env: { CHATGPT_MCP_CONFIG: configPath } }).config;
  /** What a restart does: the server reads its token again, from the config or the token file. */
  const start = async () => (serving = (await ensureBearerToken(readConfig(), appDir))!.token);
  let tokens: TokenPanel;

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'connection-window-'));
    home = path.join(temp, 'home');
    appDir = path.join(home, '.config', 'chatgpt-mcp');
    configPath = path.join(appDir, 'config.json');
    tokens = new TokenPanel({
      configPath,
      appDir,
      env: {},
      running: () => serving,
      readConfig,
      restart: async () => {
        restarts += 1;
        await start();
        return status;
      },
    });
    window = await serveWindow(temp);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await window?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function bridge(method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case 'load':
        return loadSnapshot(configPath, home, null, { status });
      case 'tokenInUse':
        return tokens.current();
      case 'replaceToken':
        return tokens.replace();
      case 'copyText':
        copied.push(String(args[0]));
        return undefined;
      case 'listActivity':
        return [];
      case 'listConnections':
        return { clients: [], pending: [] };
      default:
        throw new Error(`unexpected bridge call ${method}`);
    }
  }

  async function open(): Promise<Page> {
    const page = await openPage(browser, pageUrl, bridge, errors, { height: 860 });
    await page.getByRole('heading', { level: 1, name: 'Connection' }).waitFor();
    return page;
  }

  async function tokenShow(): Promise<string> {
    const run = await runCli(['token', 'show'], env());
    expect(run.code).toBe(0);
    return run.stdout.trim();
  }

  it('shows and copies the token in use, the one `token show` prints; Replace asks first and says what it breaks', async () => {
    fs.mkdirSync(appDir, { recursive: true });
    fs.writeFileSync(configPath, '{}\n', { mode: 0o600 });
    await start();
    const page = await open();
    const field = page.getByRole('textbox', { name: 'Token in use' });
    await expect.poll(() => field.inputValue()).toBe(serving);
    expect(await field.getAttribute('type')).toBe('password');
    expect(await field.getAttribute('readonly')).not.toBeNull();
    await page.getByText(`Kept in ${tokenFilePath(appDir)}, the same token “chatgpt-mcp token show” prints.`).waitFor();
    expect(await tokenShow()).toBe(serving);

    await page.getByRole('button', { name: 'Show' }).click();
    expect(await field.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Copy token' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(copied.at(-1)).toBe(serving);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-token.png') });

    // Replacing breaks every connected client: the window says so, and Keep changes nothing.
    const before = serving;
    await page.getByRole('button', { name: 'Replace token…' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Replace the token?' });
    await ask.getByText('Every client that uses the current token stops working until you give it the new one').waitFor();
    await ask.getByRole('button', { name: 'Keep the current token' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-replace-token.png') });
    await ask.getByRole('button', { name: 'Keep the current token' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(restarts).toBe(0);
    expect(await tokenShow()).toBe(before);

    await page.getByRole('button', { name: 'Replace token…' }).click();
    await ask.getByRole('button', { name: 'Replace token' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(restarts).toBe(1);
    await expect.poll(() => field.inputValue()).not.toBe(before);
    expect(await field.inputValue()).toBe(serving);
    expect(await tokenShow()).toBe(serving);
    expect(JSON.parse(fs.readFileSync(configPath, 'utf8'))).toEqual({});
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('a token kept in the config file is replaced there, and the window has nothing unsaved afterwards', async () => {
    fs.writeFileSync(configPath, JSON.stringify({ server: { token: 'c'.repeat(40), port: 3210 } }, null, 2), { mode: 0o600 });
    await start();
    const page = await open();
    const field = page.getByRole('textbox', { name: 'Token in use' });
    await expect.poll(() => field.inputValue()).toBe('c'.repeat(40));
    await page.getByText(`Set in the config file (server.token): ${configPath}`).waitFor();
    await page.getByRole('button', { name: 'Replace token…' }).click();
    await page.getByRole('alertdialog', { name: 'Replace the token?' }).getByRole('button', { name: 'Replace token' }).click();
    await expect.poll(() => field.inputValue()).not.toBe('c'.repeat(40));
    const written = JSON.parse(fs.readFileSync(configPath, 'utf8')) as { server: { token: string; port: number } };
    expect(written.server).toEqual({ token: await field.inputValue(), port: 3210 });
    expect(await tokenShow()).toBe(written.server.token);
    await page.getByText('All changes saved').waitFor();
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});
