/**
 * The Profiles page in the built settings window, in real headless Chromium: the active profile
 * and the token's, a connected OAuth client bound to "Read-only", a profile of the owner's own made
 * and given grants, all saved through the tray's own Save as the config keys the server reads.
 * Screenshot: test-artifacts/screenshots/profiles-page.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../main/config/load.js';
import type { ConnectionsSnapshot } from '../../../../main/tray/bridge-api.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { openPage, SCREENSHOTS, settingsWindowForSuite, pageBridge } from '../../helpers/window-harness.js';

const PHONE: ConnectionsSnapshot['clients'][number] = {
  id: 'client-phone-1',
  name: 'ChatGPT',
  redirectHosts: ['chatgpt.com'],
  registeredAt: '2026-12-01T10:00:00.000Z',
  approvedAt: '2026-12-01T10:01:00.000Z',
  lastUsedAt: null,
} as ConnectionsSnapshot['clients'][number];

describe.skipIf(!chromiumAvailable())('the Profiles page', () => {
  const suite = settingsWindowForSuite('profiles-window-');

  it('binds a connected client and the token, makes a profile of your own, and saves them as profiles.*', async () => {
    fs.writeFileSync(suite.configPath, JSON.stringify({ filesystem: { read: true, roots: [suite.temp] }, profiles: { active: 'Coding' } }));
    const errors: string[] = [];
    const bridge = pageBridge(suite, 'profiles', { listConnections: () => ({ clients: [PHONE], pending: [] }) satisfies ConnectionsSnapshot });
    const page = await openPage(suite.browser, suite.pageUrl, bridge, errors, { height: 1400 });
    await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();

    const active = page.getByRole('region', { name: 'Active profile' });
    expect(await active.getByLabel('Active profile').inputValue()).toBe('Coding');
    await active.getByLabel("The token's profile").selectOption('Desktop');
    const readOnly = page.getByRole('region', { name: 'Read-only' });
    expect(await readOnly.innerText()).toContain('Allows every granted tool (only tools that change nothing).');

    await page.getByRole('region', { name: 'Apps connected with OAuth' }).getByLabel('ChatGPT (chatgpt.com)').selectOption('Read-only');

    await page.getByLabel('Name of the new profile').fill('Phone notes');
    await page.getByRole('button', { name: 'Add profile' }).click();
    const mine = page.getByRole('region', { name: 'Phone notes' });
    await mine.getByLabel('read files').check();
    await mine.getByLabel('read git').check();
    await mine.getByText('Allows read files, read git.').waitFor();
    await page.getByLabel('Name of the new profile').fill('Coding');
    await page.getByRole('button', { name: 'Add profile' }).click();
    await page.getByText('a profile has that name').waitFor();

    await page.screenshot({ path: path.join(SCREENSHOTS, 'profiles-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    const saved = loadConfig({ cli: { config: suite.configPath }, env: {} }).config.profiles;
    expect(saved).toEqual({
      active: 'Coding',
      token: 'Desktop',
      clients: { 'client-phone-1': 'Read-only' },
      sets: { 'Phone notes': { grants: ['filesRead', 'gitRead'], readOnly: false, gateway: false } },
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
