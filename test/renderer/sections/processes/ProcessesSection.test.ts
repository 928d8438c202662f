/**
 * The Processes page in the built settings window, in real headless Chromium: the computer
 * inventory switch (system.inventory, off by default) turned on and saved through the tray's own
 * Save as the key the server reads. Screenshot: test-artifacts/screenshots/processes-page.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../main/config/load.js';
import { silentLogger } from '../../../../main/log.js';
import { saveSettings } from '../../../../main/tray/settings-save.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { openPage, type OpenWindow, SCREENSHOTS, serveWindow, loadSnapshot } from '../../helpers/window-harness.js';

describe.skipIf(!chromiumAvailable())('the Processes page', () => {
  let temp: string;
  let configPath: string;
  let browser: Browser;
  let window: OpenWindow;
  let pageUrl: string;

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'processes-window-'));
    configPath = path.join(temp, 'config.json');
    window = await serveWindow(temp);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await window?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('turns the computer inventory on and saves it as system.inventory, keeping the process grants', async () => {
    fs.writeFileSync(configPath, JSON.stringify({ process: { list: true } }));
    expect(loadConfig({ cli: { config: configPath }, env: {} }).config.system.inventory).toBe(false);
    const errors: string[] = [];
    const bridge = async (name: string, args: unknown[]): Promise<unknown> => {
      switch (name) {
        case 'load':
          return loadSnapshot(configPath, temp, { section: 'processes' });
        case 'save':
          return saveSettings(configPath, args[0] as Record<string, unknown>, silentLogger);
        case 'listProcesses':
          return { ok: false, error: 'the server is stopped' };
        case 'listActivity':
          return [];
        case 'listConnections':
          return { clients: [], pending: [] };
        default:
          throw new Error(`unexpected bridge call ${name}`);
      }
    };
    const page = await openPage(browser, pageUrl, bridge, errors, { height: 1100 });
    await page.getByRole('heading', { level: 1, name: 'Processes' }).waitFor();
    const inventory = page.getByLabel('Computer inventory');
    expect(await inventory.isChecked()).toBe(false);
    await inventory.check();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'processes-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    const { config } = loadConfig({ cli: { config: configPath }, env: {} });
    expect(config.system.inventory).toBe(true);
    expect(config.process).toMatchObject({ list: true, kill: false });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
