/**
 * The Files page's Downloads card in the built settings window, in real headless Chromium:
 * downloads (download.enabled, off by default) turned on with a smaller cap, plain http left
 * off, saved through the tray's own Save as the keys the server reads.
 * Screenshot: test-artifacts/screenshots/files-downloads.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../main/config/load.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { openPage, SCREENSHOTS, settingsWindowForSuite, pageBridge } from '../../helpers/window-harness.js';

describe.skipIf(!chromiumAvailable())('the Downloads card on the Files page', () => {
  const suite = settingsWindowForSuite('files-window-');

  it('turns downloads on with a smaller cap and saves them as download.*', async () => {
    fs.writeFileSync(suite.configPath, JSON.stringify({ filesystem: { write: true, roots: [suite.temp] } }));
    const errors: string[] = [];
    const bridge = pageBridge(suite, 'files', { folderKinds: (args) => (args[0] as string[]).map(() => 'directory') });
    const page = await openPage(suite.browser, suite.pageUrl, bridge, errors, { height: 1400 });
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
    const card = page.getByRole('region', { name: 'Downloads' });
    expect(await card.getByLabel('Download files').isChecked()).toBe(false);
    expect(await card.getByLabel('Allow plain http://').isDisabled()).toBe(true);
    await card.getByLabel('Download files').check();
    expect(await card.getByLabel('Allow plain http://').isDisabled()).toBe(false);
    expect(await card.getByLabel('Largest download unit').inputValue()).toBe('MiB');
    await card.getByLabel('Largest download', { exact: true }).fill('10');
    await card.screenshot({ path: path.join(SCREENSHOTS, 'files-downloads.png') });
    await page.getByText('Unsaved changes').waitFor();
    expect(await card.getByLabel('Download files').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    const saved = () => loadConfig({ cli: { config: suite.configPath }, env: {} }).config.download;
    await expect.poll(saved).toMatchObject({ enabled: true, allowHttp: false, maxBytes: 10 * 1024 * 1024 });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
