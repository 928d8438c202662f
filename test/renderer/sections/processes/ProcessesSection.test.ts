/**
 * The Processes page in the built settings window, in real headless Chromium: the computer
 * inventory switch (system.inventory, off by default) turned on and saved through the tray's own
 * Save as the key the server reads. Screenshot: test-artifacts/screenshots/processes-page.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../main/config/load.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { openPage, SCREENSHOTS, settingsWindowForSuite, pageBridge } from '../../helpers/window-harness.js';

describe.skipIf(!chromiumAvailable())('the Processes page', () => {
  const suite = settingsWindowForSuite('processes-window-');

  it('turns the computer inventory on and saves it as system.inventory, keeping the process grants', async () => {
    fs.writeFileSync(suite.configPath, JSON.stringify({ process: { list: true } }));
    expect(loadConfig({ cli: { config: suite.configPath }, env: {} }).config.system.inventory).toBe(false);
    const errors: string[] = [];
    const bridge = pageBridge(suite, 'processes', { listProcesses: () => ({ ok: false, error: 'the server is stopped' }) });
    const page = await openPage(suite.browser, suite.pageUrl, bridge, errors, { height: 1100 });
    await page.getByRole('heading', { level: 1, name: 'Processes' }).waitFor();
    const inventory = page.getByLabel('Computer inventory');
    expect(await inventory.isChecked()).toBe(false);
    await inventory.check();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'processes-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    const { config } = loadConfig({ cli: { config: suite.configPath }, env: {} });
    expect(config.system.inventory).toBe(true);
    expect(config.process).toMatchObject({ list: true, kill: false });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
