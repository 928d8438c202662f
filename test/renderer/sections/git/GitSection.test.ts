/**
 * The Git page in the built settings window, in real headless Chromium: the git grants and the
 * remotes (an entry that is not a repository refused in the page), "Find checks" on a real
 * folder through the tray's own panel, "Use these checks", editing one, and saving it as
 * checks.projects; the undo settings. Screenshot: test-artifacts/screenshots/git-page.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UndoPanel } from '../../../../main/tray/undo-panel.js';
import { chromiumAvailable } from '../../../tray/helpers/desktop.js';
import { BRIDGE_METHODS, bridgeInit, type OpenWindow, SCREENSHOTS, serveWindow, loadSnapshot } from '../../helpers/window-harness.js';
import { saveSettings } from '../../../../main/tray/settings-save.js';
import { silentLogger } from '../../../../main/log.js';

describe.skipIf(!chromiumAvailable())('the Git page', () => {
  let temp: string;
  let projects: string;
  let configPath: string;
  let browser: Browser;
  let window: OpenWindow;
  let pageUrl: string;
  const panel = new UndoPanel(() => {
    throw new Error('the Git page does not undo');
  });

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'git-window-'));
    projects = path.join(temp, 'projects');
    fs.mkdirSync(path.join(projects, 'web'), { recursive: true });
    fs.mkdirSync(path.join(projects, 'notes'));
    fs.writeFileSync(path.join(projects, 'web', 'package.json'), JSON.stringify({ scripts: { test: 'vitest run', lint: 'eslint .', start: 'node .' } }));
    configPath = path.join(temp, 'config.json');
    fs.writeFileSync(configPath, JSON.stringify({ filesystem: { write: true, roots: [projects] } }));
    window = await serveWindow(temp);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await window?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function open(): Promise<{ page: Page; errors: string[] }> {
    const errors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1000, height: 1500 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await page.exposeFunction('__bridge', async (name: string, args: unknown[]): Promise<unknown> => {
      switch (name) {
        case 'load':
          return loadSnapshot(configPath, temp, { section: 'git' });
        case 'save':
          // The tray's own Save (main/tray/settings-save.ts).
          return saveSettings(configPath, args[0] as Record<string, unknown>, silentLogger);
        case 'detectChecks':
          return panel.detect(String(args[0]));
        case 'listActivity':
          return [];
        case 'listConnections':
          return { clients: [], pending: [] };
        default:
          throw new Error(`unexpected bridge call ${name}`);
      }
    });
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    await page.goto(pageUrl);
    await page.getByRole('heading', { level: 1, name: 'Git' }).waitFor();
    return { page, errors };
  }

  it('grants, remotes, checks found and adopted, saved as the config keys', async () => {
    const { page, errors } = await open();
    await page.getByLabel('Read repositories').check();
    await page.getByLabel('Change repositories locally').check();

    const push = page.getByRole('group', { name: /Push to/ });
    await push.getByLabel('Repository to push to').fill('ext::sh -c evil');
    await push.getByRole('button', { name: 'Add remote' }).click();
    await push.getByText(/ext:: runs a remote helper program/).waitFor();
    await push.getByLabel('Repository to push to').fill('git@github.com:me/web.git');
    await push.getByRole('button', { name: 'Add remote' }).click();

    await page.getByRole('button', { name: 'Find checks' }).click();
    const proposal = page.getByRole('group', { name: `Suggested for ${path.join(projects, 'web')}` });
    await proposal.getByText('npm run lint').waitFor();
    expect(await proposal.innerText()).not.toContain('start');
    await proposal.getByRole('button', { name: 'Use these checks' }).click();
    const project = page.getByRole('group', { name: `Checks of ${path.join(projects, 'web')}` });
    await project.getByLabel('Command of test').fill('npm test -- --reporter "dot matrix"');
    await project.getByLabel('Level of lint').selectOption('strict');
    await page.getByRole('region', { name: 'Project checks' }).screenshot({ path: path.join(SCREENSHOTS, 'git-checks.png') });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'git-page.png'), fullPage: true });

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor();
    const saved = JSON.parse(fs.readFileSync(configPath, 'utf8'));
    expect(saved.git).toMatchObject({ read: true, write: true, push: ['git@github.com:me/web.git'], pull: [] });
    expect(saved.checks.projects).toEqual([
      {
        path: path.join(projects, 'web'),
        checks: { lint: { command: ['npm', 'run', 'lint'], level: 'strict' }, test: ['npm', 'test', '--', '--reporter', 'dot matrix'] },
      },
    ]);
    expect(saved.undo).toMatchObject({ enabled: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
