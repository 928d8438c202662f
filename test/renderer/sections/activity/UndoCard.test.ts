/**
 * "Undo these changes" in the activity view, in real headless Chromium, wired to the real thing:
 * a server records a client's changes in a journal on disk, the tray's undo panel (the policies
 * the saved config makes) serves the window; the owner opens the group, sees its files and a
 * diff, undoes it, and a file edited since is left and named. Screenshots:
 * test-artifacts/screenshots/activity-undo-*.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../../../adapter/local-computer-adapter.js';
import type { SettingsSnapshot } from '../../../../main/tray/bridge-api.js';
import { undoPanel } from '../../../../main/tray/undo-panel.js';
import { configSchema } from '../../../../main/config/schema.js';
import { openJournal } from '../../../../main/undo/undo-service.js';
import { connectModernHttp } from '../../../helpers/clients.js';
import { makeUnwritable } from '../../../helpers/unwritable.js';
import { startTestServer } from '../../../helpers/servers.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { BRIDGE_METHODS, bridgeInit, type OpenWindow, SCREENSHOTS, serveWindow } from '../../helpers/window-harness.js';

describe.skipIf(!chromiumAvailable())('undo in the activity view', () => {
  let temp: string;
  let root: string;
  let appDir: string;
  let browser: Browser;
  let window: OpenWindow;
  let pageUrl: string;
  const config = (root: string) => configSchema.parse({ filesystem: { write: true, roots: [root] }, server: { auth: 'none', toolNames: 'dotted' } });

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'undo-window-'));
    root = path.join(temp, 'root');
    appDir = path.join(temp, 'app');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'plan.md'), '# Plan\n\n1. write tests\n');
    fs.writeFileSync(path.join(root, 'keep.txt'), 'the owner keeps this\n');
    // A model session, recorded as the tray's server records it.
    const server = await startTestServer({ filesystem: { write: true, roots: [root] } }, { journal: openJournal(appDir, config(root)) });
    const client = await connectModernHttp(server.url);
    await client.callTool({
      name: 'fs.edit',
      arguments: { path: path.join(root, 'plan.md'), edits: [{ oldText: '1. write tests', newText: '1. skip tests' }] },
    });
    await client.callTool({ name: 'fs.write', arguments: { path: path.join(root, 'keep.txt'), content: 'the model changed this\n' } });
    await client.callTool({ name: 'fs.write', arguments: { path: path.join(root, 'new.txt'), content: 'made by the model\n' } });
    await client.close();
    await server.close();
    fs.writeFileSync(path.join(root, 'keep.txt'), 'the owner edited this afterwards\n');
    window = await serveWindow(temp);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await window?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  /** The settings window on the activity view, its undo calls served by `panel`. */
  async function openPage(panel: ReturnType<typeof undoPanel>) {
    const errors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.exposeFunction('__bridge', async (name: string, args: unknown[]): Promise<unknown> => {
      switch (name) {
        case 'load':
          return {
            configPath: path.join(temp, 'config.json'),
            exists: false,
            config: null,
            fileError: null,
            issues: [],
            homeDir: temp,
            platform: 'linux',
            status: { state: 'stopped' },
            overrides: [],
            navigate: { section: 'activity' },
          } satisfies SettingsSnapshot;
        case 'listActivity':
          return [];
        case 'listConnections':
          return { clients: [], pending: [] };
        case 'listChanges':
          return panel.list();
        case 'showChanges':
          return panel.show(String(args[0]));
        case 'undoChanges':
          return panel.apply(String(args[0]));
        default:
          throw new Error(`unexpected bridge call ${name}`);
      }
    });
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    await page.goto(pageUrl);
    return { context, page, errors };
  }

  it('shows the files and a diff first, undoes, and names what it left', async () => {
    const adapter = createLocalAdapter();
    const panel = undoPanel({ appDir, adapter, config: () => config(root), running: () => null, protectedFiles: [] });
    const { context, page, errors } = await openPage(panel);
    const card = page.getByRole('region', { name: 'Changes you can undo' });
    await card.getByText(/3 paths/).waitFor();
    expect(await card.innerText()).toContain('Commands (shell_exec, process_start) can change anything and are not recorded');
    await card.getByRole('button', { name: 'Show changes' }).click();
    await card.getByText('-1. skip tests').waitFor();
    await card.getByText('+1. write tests').waitFor();
    await card.screenshot({ path: path.join(SCREENSHOTS, 'activity-undo-changes.png') });

    await card.getByRole('button', { name: 'Undo these changes' }).click();
    const outcome = card.getByRole('status', { name: 'What undo did' });
    await outcome.getByText('Put back 2 paths').waitFor();
    expect(await outcome.innerText()).toContain(`Left ${path.join(root, 'keep.txt')}: it was changed after the model changed it`);
    await card.screenshot({ path: path.join(SCREENSHOTS, 'activity-undo-done.png') });

    expect(fs.readFileSync(path.join(root, 'plan.md'), 'utf8')).toBe('# Plan\n\n1. write tests\n');
    expect(fs.existsSync(path.join(root, 'new.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('the owner edited this afterwards\n');
    await card.getByText('partly undone').waitFor();
    expect(errors).toEqual([]);
    await context.close();
    await adapter.close();
  });

  it('offers to try again what it left as it was (a folder the owner made read-only), and then puts it back', async (context) => {
    const root2 = path.join(temp, 'root2');
    const appDir2 = path.join(temp, 'app2');
    fs.mkdirSync(path.join(root2, 'proj', 'X'), { recursive: true });
    fs.writeFileSync(path.join(root2, 'proj', 'X', 'only-copy.txt'), "the owner's only copy\n");
    const server = await startTestServer({ filesystem: { write: true, roots: [root2] } }, { journal: openJournal(appDir2, config(root2)) });
    const client = await connectModernHttp(server.url);
    await client.callTool({ name: 'fs.move', arguments: { source: path.join(root2, 'proj', 'X'), destination: path.join(root2, 'proj', 'Y') } });
    await client.close();
    await server.close();
    const locked = makeUnwritable(path.join(root2, 'proj'));
    if (typeof locked === 'string') return context.skip(locked);
    const adapter = createLocalAdapter();
    const panel = undoPanel({ appDir: appDir2, adapter, config: () => config(root2), running: () => null, protectedFiles: [] });
    const { context: browserContext, page, errors } = await openPage(panel);
    try {
      const card = page.getByRole('region', { name: 'Changes you can undo' });
      await card.getByRole('button', { name: 'Show changes' }).click();
      await card.getByRole('button', { name: 'Undo these changes' }).click();
      await card.getByRole('status', { name: 'What undo did' }).getByText('Put back 0 paths').waitFor();
      expect(fs.readFileSync(path.join(root2, 'proj', 'Y', 'only-copy.txt'), 'utf8')).toBe("the owner's only copy\n");
      const retry = card.getByRole('button', { name: 'Try the failed paths again' });
      await retry.waitFor();
      await card.screenshot({ path: path.join(SCREENSHOTS, 'activity-undo-retry.png') });
      locked.release();
      await retry.click();
      await card.getByRole('status', { name: 'What undo did' }).getByText('Put back 2 paths').waitFor();
      expect(await retry.count()).toBe(0);
      expect(fs.readdirSync(path.join(root2, 'proj'))).toEqual(['X']);
      expect(fs.readFileSync(path.join(root2, 'proj', 'X', 'only-copy.txt'), 'utf8')).toBe("the owner's only copy\n");
      expect(errors).toEqual([]);
    } finally {
      await browserContext.close();
      await adapter.close();
      locked.release(); // again, if the test failed before (releasing twice is harmless)
    }
  });

  it('says of a file replaced by one of another mode which modes, and puts the first back', async () => {
    const root3 = path.join(temp, 'root3');
    const appDir3 = path.join(temp, 'app3');
    fs.mkdirSync(root3);
    fs.writeFileSync(path.join(root3, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    fs.chmodSync(path.join(root3, 'run.sh'), 0o755);
    fs.writeFileSync(path.join(root3, 'plain.sh'), '#!/bin/sh\n');
    fs.chmodSync(path.join(root3, 'plain.sh'), 0o644);
    const server = await startTestServer({ filesystem: { write: true, roots: [root3] } }, { journal: openJournal(appDir3, config(root3)) });
    const client = await connectModernHttp(server.url);
    await client.callTool({ name: 'fs.move', arguments: { source: path.join(root3, 'plain.sh'), destination: path.join(root3, 'run.sh'), overwrite: true } });
    await client.close();
    await server.close();
    const adapter = createLocalAdapter();
    const panel = undoPanel({ appDir: appDir3, adapter, config: () => config(root3), running: () => null, protectedFiles: [] });
    const { context, page, errors } = await openPage(panel);
    try {
      const card = page.getByRole('region', { name: 'Changes you can undo' });
      await card.getByRole('button', { name: 'Show changes' }).click();
      await card.getByText('mode 755 → 644').waitFor();
      await card.getByRole('button', { name: 'Undo these changes' }).click();
      await card.getByRole('status', { name: 'What undo did' }).getByText('Put back 2 paths').waitFor();
      expect(fs.statSync(path.join(root3, 'run.sh')).mode & 0o7777).toBe(0o755);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await adapter.close();
    }
  });
});
