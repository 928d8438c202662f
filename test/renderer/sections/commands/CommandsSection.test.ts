/**
 * The Commands page's sandbox card in the built settings window, in real headless Chromium: what
 * it says on Linux, macOS and Windows (the same words as system.info, from the same rules), the
 * refusal the server would give, and that the choice is saved as the config keys. Screenshots go
 * to test-artifacts/screenshots/commands-sandbox-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { BRIDGE_METHODS, bridgeInit, SCREENSHOTS, loadSnapshot, settingsWindowForSuite } from '../../helpers/window-harness.js';
import { saveSettings } from '../../../../main/tray/settings-save.js';
import { silentLogger } from '../../../../main/log.js';

describe.skipIf(!chromiumAvailable())('the sandbox card on the Commands page', () => {
  const suite = settingsWindowForSuite('commands-window-');

  async function open(platform: string, shell: Record<string, unknown>): Promise<{ page: Page; errors: string[] }> {
    fs.writeFileSync(suite.configPath, JSON.stringify({ shell: { enabled: true, allowedCommands: ['git'], ...shell } }));
    const errors: string[] = [];
    const context = await suite.browser.newContext({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await page.exposeFunction('__bridge', async (name: string, args: unknown[]): Promise<unknown> => {
      switch (name) {
        case 'load':
          return loadSnapshot(suite.configPath, suite.temp, { section: 'commands' }, { platform });
        case 'save':
          // The tray's own Save (main/tray/settings-save.ts).
          return saveSettings(suite.configPath, args[0] as Record<string, unknown>, silentLogger);
        case 'listActivity':
          return [];
        case 'listConnections':
          return { clients: [], pending: [] };
        default:
          throw new Error(`unexpected bridge call ${name}`);
      }
    });
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    await page.goto(suite.pageUrl);
    await page.getByRole('heading', { level: 1, name: 'Commands' }).waitFor();
    return { page, errors };
  }

  const card = (page: Page) => page.getByRole('region', { name: 'Sandbox' });

  it('Linux, the default: private-home with bubblewrap, no network, display hidden; choosing off saves shell.sandbox "off"', async () => {
    const { page, errors } = await open('linux', {});
    const text = await card(page).innerText();
    expect(text).toContain('Commands run in a bubblewrap sandbox');
    expect(text).toContain('Your home folder is hidden from commands, except the shared folders and the toolchain folders (~/.cargo,');
    expect(await card(page).getByLabel('Mode').locator('option').first().textContent()).toBe('Automatic (private-home)');
    expect(await card(page).getByLabel('Mode').locator('option').allTextContents()).toContain(
      'Private home: workspace, and your home hidden but shared and toolchain folders',
    );
    expect(text).toContain('Network: none');
    expect(text).toContain('The display is hidden');
    expect(text).toContain('sudo apt-get install bubblewrap');
    expect(await card(page).getByLabel('Mode').inputValue()).toBe('auto');
    await card(page).getByLabel('Folder (~/folder or an absolute path)').fill('~/.gradle');
    await card(page).getByRole('button', { name: 'Add folder' }).click();
    await card(page).screenshot({ path: path.join(SCREENSHOTS, 'commands-sandbox-linux.png') });

    await card(page).getByLabel('Mode').selectOption('off');
    await card(page).getByText("Commands are not sandboxed: an allowed program runs with your account's full rights.").waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    // The folder added under private-home is kept when the mode changes.
    expect(JSON.parse(fs.readFileSync(suite.configPath, 'utf8')).shell).toMatchObject({ sandbox: 'off', homeVisible: ['~/.gradle'] });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('Linux with the network on says the X11 abstract sockets stay reachable', async () => {
    const { page } = await open('linux', { network: 'on' });
    await card(page)
      .getByText(/hidden except for abstract sockets/)
      .waitFor();
    await page.context().close();
  });

  it('Windows: not available, said as such; workspace in the file shows the refusal the server gives', async () => {
    const { page, errors } = await open('win32', {});
    const options = await card(page).getByLabel('Mode').locator('option').allTextContents();
    expect(options).toEqual(['Automatic (off, not available on Windows)', 'Off: your account’s full rights']);
    await card(page)
      .getByText(/Commands are not sandboxed \(Windows has no sandbox for commands in this version\)/)
      .waitFor();
    await page.context().close();

    const refused = await open('win32', { sandbox: 'workspace' });
    await card(refused.page)
      .getByText(/The server will not start: shell\.sandbox is "workspace", but commands cannot be sandboxed on Windows/)
      .waitFor();
    await card(refused.page).screenshot({ path: path.join(SCREENSHOTS, 'commands-sandbox-windows-refused.png') });
    expect([...errors, ...refused.errors]).toEqual([]);
    await refused.page.context().close();
  });

  it('macOS: opt-in Seatbelt, with loopback offered', async () => {
    const { page } = await open('darwin', { sandbox: 'workspace', network: 'loopback' });
    const text = await card(page).innerText();
    expect(text).toContain('Commands run in a Seatbelt (sandbox-exec) sandbox');
    expect(text).toContain("Network: this computer's loopback services only");
    expect(await card(page).getByLabel('Mode').locator('option').first().textContent()).toBe('Automatic (off, opt-in on macOS)');
    await card(page).screenshot({ path: path.join(SCREENSHOTS, 'commands-sandbox-macos.png') });
    await page.context().close();
  });
});
