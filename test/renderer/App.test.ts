/**
 * The built settings window in real headless Chromium. The preload's API is stood in for by
 * an init script whose every call goes to this test process (page.exposeFunction) and runs
 * the real main-process modules: readConfigForEditing, saveConfig writing to a temp dir, a
 * real MCP server for "Test connection", the process panel over the real adapter with the
 * ProcessPolicy of the config the "server" last started with (as the tray's lifecycle does),
 * a real activity ring, the OAuth panel over a real OAuth server's state file, and the
 * tunnel controller. Screenshots of every page, light and dark, land in
 * test-artifacts/screenshots/.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { configSchema, type Config } from '../../main/config/schema.js';
import { loadConfig } from '../../main/config/load.js';
import { silentLogger } from '../../main/log.js';
import { startHttpServer, type RunningHttpServer } from '../../main/mcp/http.js';
import { createServerFactory } from '../../main/mcp/server.js';
import { ActivityRing } from '../../main/tray/activity-ring.js';
import { searchAuditForWindow } from '../../main/tray/audit-panel.js';
import type { KillSignal, ServerStatus, SettingsSnapshot } from '../../main/tray/bridge-api.js';
import { readConfigForEditing, savedProcessGrants } from '../../main/tray/config-file.js';
import { testConnection } from '../../main/tray/connection-test.js';
import { OAuthPanel } from '../../main/tray/oauth-panel.js';
import { ProcessPanel } from '../../main/tray/process-panel.js';
import { isRestartPending } from '../../main/tray/restart-pending.js';
import { TunnelController } from '../../main/tunnel/tunnel-controller.js';
import { oauthStatePath } from '../../main/auth/oauth-state.js';
import { ProcessPolicy } from '../../main/policy/process.js';
import { folderKind } from '../../main/tray/folder-kind.js';
import { TokenPanel } from '../../main/tray/token-panel.js';
import { fileStore } from '../../main/tunnel/secret-store.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { chromiumAvailable } from '../tray/helpers/desktop.js';
import { BRIDGE_METHODS, bridgeInit, type OpenWindow, push, SCREENSHOTS, serveWindow } from './helpers/window-harness.js';
import { saveSettings } from '../../main/tray/settings-save.js';

const available = chromiumAvailable();
const linux = process.platform === 'linux';
const LONG_PATH = '/home/me/projects/a-rather-long-client-name/src/components/settings/panels/ProcessesSectionWithAVeryLongName.tsx';

describe.skipIf(!available)('settings window in headless Chromium', () => {
  let browser: Browser;
  let window: OpenWindow;
  let pageUrl: string;
  let mcp: RunningHttpServer;
  let oauthServer: TestHttpServer;
  let temp: string;
  let home: string;
  let appDir: string;
  let configPath: string;
  let sharedFolder: string;
  let oauth: OAuthPanel;
  let tunnel: TunnelController;
  const copied: string[] = [];
  /** Folders the "native picker" returns next; the shared folder when empty. */
  const picks: string[] = [];
  const adapter = createLocalAdapter();
  const ring = sampleActivity();

  // The "server": the config it started with and its policy objects, as ServerLifecycle and app-main keep them.
  const statusRunning: ServerStatus = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 10, auth: false };
  let status: ServerStatus = statusRunning;
  let runningConfig: Readonly<Config> = configSchema.parse({});
  let runningPolicy = new ProcessPolicy(runningConfig, adapter.inspect);
  const readSaved = () => loadConfig({ env: { CHATGPT_MCP_CONFIG: configPath } }).config;
  const restart = () => {
    runningConfig = fs.existsSync(configPath) ? readSaved() : configSchema.parse({});
    runningPolicy = new ProcessPolicy(runningConfig, adapter.inspect);
    status = statusRunning;
  };
  const processes = new ProcessPanel(
    adapter.processes,
    () => (status.state === 'running' ? runningPolicy : null),
    () => savedProcessGrants(configPath),
  );
  const tokens = new TokenPanel({
    get configPath() {
      return configPath;
    },
    get appDir() {
      return appDir;
    },
    env: {},
    running: () => null,
    readConfig: readSaved,
    restart: async () => {
      restart();
      return status;
    },
  });
  /** Writes the config file and restarts the "server" with it. */
  const startWith = (config: Record<string, unknown>) => {
    fs.mkdirSync(path.dirname(configPath), { recursive: true });
    fs.writeFileSync(configPath, JSON.stringify(config, null, 2));
    restart();
  };

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-window-'));
    home = path.join(temp, 'home');
    appDir = path.join(home, '.config', 'chatgpt-mcp');
    sharedFolder = path.join(home, 'projects');
    fs.mkdirSync(sharedFolder, { recursive: true });
    configPath = path.join(appDir, 'config.json');

    // A real server for "Test connection", with process tools on so the tool count is telling.
    const serverConfig = configSchema.parse({ server: { port: 0, auth: 'none' }, process: { list: true, kill: true } });
    mcp = await startHttpServer({
      config: serverConfig,
      logger: silentLogger,
      factory: createServerFactory({ config: serverConfig, adapter, logger: silentLogger }),
    });
    // A real OAuth server whose state file the Clients page reads through the tray's OAuthPanel.
    const stateFile = oauthStatePath(appDir);
    oauth = new OAuthPanel(stateFile);
    oauthServer = await startTestServer({ server: { auth: 'oauth' } }, { oauth: { stateFile } });
    tunnel = new TunnelController({
      readConfig: readSaved,
      appDir,
      // No tunnel-client on this PATH: step 1 says so.
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
      port: adapter.inspect,
      protectedFiles: [configPath, appDir],
      keyStores: async () => [fileStore(appDir)],
      logger: silentLogger,
    });

    window = await serveWindow(home);
    ({ browser, pageUrl } = window);
  }, 180_000);

  afterAll(async () => {
    await tunnel?.quit();
    await window?.close();
    await mcp?.close();
    await oauthServer?.close();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function openWindow(colorScheme: 'light' | 'dark' = 'light', height = 720): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1000, height }, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.exposeFunction('__bridge', (method: string, args: unknown[]) => bridge(page, method, args));
    await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
    await page.goto(pageUrl);
    // Loaded: the sidebar shows the config file the bridge reported.
    await page.getByText(configPath, { exact: true }).waitFor();
    return { page, errors };
  }

  async function bridge(page: Page, method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case 'load': {
        const snapshot: SettingsSnapshot = {
          configPath,
          ...readConfigForEditing(configPath),
          homeDir: home,
          platform: 'linux',
          status,
          overrides: [],
          navigate: null,
          restartPending: isRestartPending(status, runningConfig, readSaved),
        };
        return snapshot;
      }
      case 'save':
        // The tray's own Save (main/tray/settings-save.ts).
        return saveSettings(configPath, args[0] as Record<string, unknown>, silentLogger);
      case 'tokenInUse':
        return tokens.current();
      case 'replaceToken':
        return tokens.replace();
      case 'folderKinds':
        return (args[0] as string[]).map(folderKind);
      case 'copyText':
        copied.push(String(args[0]));
        return undefined;
      case 'pickFolder':
        return picks.shift() ?? sharedFolder;
      case 'testConnection':
        return testConnection({ url: mcp.url });
      case 'restartServer':
        // The lifecycle announces the start, then the result.
        await push(page, 'status', { state: 'starting' });
        restart();
        return status;
      case 'listActivity':
        return ring.list();
      case 'listChanges':
        return { ok: true, groups: [], dropped: [], recording: false };
      case 'searchAudit':
        return searchAuditForWindow(appDir, String(args[0]));
      case 'listProcesses':
        return processes.list(args[0] as string | undefined);
      case 'killProcess':
        return processes.kill(args[0] as number, args[1] as KillSignal);
      case 'listConnections':
        return oauth.list();
      case 'approveConnection':
        return oauth.approve(String(args[0]));
      case 'denyConnection':
        return oauth.deny(String(args[0]));
      case 'revokeClient':
        return oauth.revoke(String(args[0]));
      case 'tunnelStatus':
        await tunnel.refreshKeyInfo();
        return tunnel.snapshot;
      case 'tunnelLookUp':
        return tunnel.lookUp(args[0] as string | undefined);
      default:
        throw new Error(`unexpected bridge call ${method}`);
    }
  }

  it('adds a root, grants display and screen, allows a command, saves exactly that, and shows the restart pending', async () => {
    if (fs.existsSync(configPath)) fs.rmSync(configPath);
    restart();
    const { page, errors } = await openWindow();
    await page.getByRole('heading', { level: 1, name: 'Connection' }).waitFor();
    await page.getByText('All changes saved').waitFor();
    expect(await page.getByText('Restart pending').count()).toBe(0);

    await nav(page, 'Files').click();
    await page.getByRole('switch', { name: 'Write files' }).check();
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.getByRole('cell', { name: sharedFolder, exact: true }).waitFor();
    await page.getByLabel(`Access to ${sharedFolder}`).selectOption('write');
    // The sidebar marks the pages with unsaved changes.
    await nav(page, 'Files').getByLabel('unsaved changes').waitFor();
    expect(await nav(page, 'Commands').getByLabel('unsaved changes').count()).toBe(0);

    await nav(page, 'Desktop').click();
    const screen = page.getByRole('switch', { name: 'See the screen' });
    expect(await screen.isDisabled()).toBe(true);
    await page.getByRole('switch', { name: 'Allow access to this computer’s display' }).check();
    await page.getByText('The model can see your screen').waitFor();
    expect(await screen.isDisabled()).toBe(false);
    await screen.check();

    await nav(page, 'Commands').click();
    await page.getByRole('switch', { name: 'Allow running commands' }).check();
    await page.getByLabel('Program name or path').fill('git');
    await page.getByRole('button', { name: 'Add program' }).click();
    await page.getByRole('main').getByRole('listitem').filter({ hasText: 'git' }).waitFor();

    await page.getByText('Unsaved changes').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { __dirty: { value: boolean } }).__dirty.value)).toBe(true);
    expect(fs.existsSync(configPath)).toBe(false);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. The running server keeps its current settings').waitFor();
    await page.getByText('All changes saved').waitFor();
    const pending = page.getByLabel('Settings sections').getByText('Restart pending');
    await pending.waitFor();
    expect(await nav(page, 'Files').getByLabel('unsaved changes').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'after-save.png') });

    const written = configSchema.parse(JSON.parse(fs.readFileSync(configPath, 'utf8')));
    const expected = configSchema.parse({
      filesystem: { write: true, roots: [{ path: sharedFolder, readOnly: false }] },
      desktop: { hostDisplayAccess: true, screen: true },
      shell: { enabled: true, allowedCommands: ['git'] },
    });
    expect(written).toEqual(expected);
    if (process.platform !== 'win32') expect(fs.statSync(configPath).mode & 0o777).toBe(0o600);

    // A window opened later still knows (the main process compares the file with the running config).
    const later = await openWindow();
    await later.page.getByLabel('Settings sections').getByText('Restart pending').waitFor();
    await later.page.context().close();

    // Restarting applies the file: nothing is pending any more, here or in a new window.
    await page.getByRole('button', { name: 'Restart server now' }).click();
    await pending.waitFor({ state: 'detached' });
    expect(runningConfig).toEqual(expected);
    const after = await openWindow();
    await after.page.getByText('All changes saved').waitFor();
    expect(await after.page.getByText('Restart pending').count()).toBe(0);
    await after.page.context().close();

    // A restart from the tray (a pushed "starting") clears it too.
    await nav(page, 'Commands').click();
    await page.getByRole('switch', { name: 'Let the model add environment variables' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await pending.waitFor();
    await push(page, 'status', { state: 'starting' });
    await pending.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps settings it has no control for (chatgpt.searchFetch) when saving, and edits it on the ChatGPT page', async () => {
    startWith({ chatgpt: { searchFetch: true }, filesystem: { roots: [sharedFolder] } });
    const { page, errors } = await openWindow();
    await page.getByRole('textbox', { name: 'Port', exact: true }).fill('3211');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const saved = JSON.parse(fs.readFileSync(configPath, 'utf8'));
    expect(saved.chatgpt).toEqual({ searchFetch: true });
    expect(saved.server.port).toBe(3211);

    await nav(page, 'ChatGPT').click();
    const searchFetch = page.getByRole('switch', { name: 'Offer search and fetch' });
    expect(await searchFetch.isChecked()).toBe(true);
    await searchFetch.uncheck();
    await nav(page, 'ChatGPT').getByLabel('unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    expect(JSON.parse(fs.readFileSync(configPath, 'utf8')).chatgpt).toEqual({ searchFetch: false });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("sets the answer budget and turns the app's update checks off on the Connection page", async () => {
    startWith({ filesystem: { roots: [sharedFolder] } });
    const { page, errors } = await openWindow();
    await page.getByRole('textbox', { name: 'Answer budget (tokens)' }).fill('4000');
    const updates = page.getByRole('switch', { name: 'Look for updates' });
    expect(await updates.isChecked()).toBe(true);
    await updates.uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    expect(JSON.parse(fs.readFileSync(configPath, 'utf8')).updates).toEqual({ check: false });
    expect(JSON.parse(fs.readFileSync(configPath, 'utf8')).server.answerBudgetTokens).toBe(4000);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connection-updates-off.png') });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('warns on the Files page about a shared folder that is missing or a file, before the tools refuse it', async () => {
    const gone = path.join(home, 'deleted-project');
    const notes = path.join(home, 'notes.txt');
    fs.writeFileSync(notes, 'a file, not a folder');
    startWith({ filesystem: { roots: [sharedFolder, gone, notes] } });
    const { page, errors } = await openWindow();
    await nav(page, 'Files').click();
    const row = (folder: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: folder, exact: true }) });
    await row(gone).getByText('This folder does not exist (any more): file tools refuse it until it does.').waitFor();
    await row(notes).getByText('This is a file, not a folder: file tools refuse it.').waitFor();
    expect(await row(sharedFolder).getByRole('note').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'files-missing-folder.png') });
    expect(errors).toEqual([]);
    await page.context().close();
    // Once the folder exists, the page says nothing more about it.
    fs.mkdirSync(gone);
    const again = await openWindow();
    await nav(again.page, 'Files').click();
    await again.page.getByRole('cell', { name: gone, exact: true }).waitFor();
    await again.page.getByText('This is a file, not a folder').waitFor();
    expect(await again.page.getByText('This folder does not exist (any more)').count()).toBe(0);
    await again.page.context().close();
  });

  it('shows the Desktop page’s capabilities off while display access is off, keeping what was chosen for later', async () => {
    startWith({ desktop: { hostDisplayAccess: false, screen: true, input: true } });
    const { page, errors } = await openWindow();
    await nav(page, 'Desktop').click();
    for (const name of ['See the screen', 'Use mouse and keyboard', 'Open web pages', 'Launch and close apps']) {
      const control = page.getByRole('switch', { name });
      expect(await control.isChecked()).toBe(false);
      expect(await control.isDisabled()).toBe(true);
    }
    await page.getByText('Kept for when display access is on: See the screen, Use mouse and keyboard.').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'desktop-inactive.png') });
    await page.getByRole('switch', { name: 'Allow access to this computer’s display' }).check();
    expect(await page.getByRole('switch', { name: 'See the screen' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Use mouse and keyboard' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Open web pages' }).isChecked()).toBe(false);
    expect(await page.getByText('Kept for when display access is on').count()).toBe(0);
    // Nothing was changed but the master switch.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    expect(JSON.parse(fs.readFileSync(configPath, 'utf8')).desktop).toMatchObject({ hostDisplayAccess: true, screen: true, input: true, browser: false });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows an invalid port next to the field, gives no URL to copy, blocks saving and writes nothing', async () => {
    startWith({ server: { port: 3210 } });
    const { page, errors } = await openWindow();
    const before = fs.readFileSync(configPath);
    const mtime = fs.statSync(configPath).mtimeMs;
    const url = page.getByRole('textbox', { name: 'MCP URL' });
    expect(await url.inputValue()).toBe('http://127.0.0.1:3210/mcp');

    const port = page.getByRole('textbox', { name: 'Port', exact: true });
    await port.fill('70000');
    const error = page.locator('#field-server-port-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('enter a port number from 0 to 65535');
    expect(await port.getAttribute('aria-invalid')).toBe('true');
    expect(await port.getAttribute('aria-describedby')).toContain('field-server-port-error');
    // No URL for a port that cannot exist, and nothing to copy.
    expect(await url.count()).toBe(0);
    await page.getByText('Fix the host and port above to get the URL.').waitFor();
    expect(await page.getByText('70000/mcp').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy MCP URL' }).count()).toBe(0);
    await page.getByText('Fix 1 problem to save').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Settings sections').getByLabel('1 problem').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'invalid-port.png') });

    // The keyboard shortcut is refused too, and so is a direct call that skips the form.
    await port.press('Control+s');
    const direct = await page.evaluate(() =>
      (globalThis as unknown as { chatgptMcp: { save(c: unknown): Promise<unknown> } }).chatgptMcp.save({ server: { port: 70000 } }),
    );
    expect(direct).toMatchObject({ ok: false, issues: [{ path: ['server', 'port'] }] });
    expect(fs.readFileSync(configPath)).toEqual(before);
    expect(fs.statSync(configPath).mtimeMs).toBe(mtime);

    // Port 0: the port is picked at each start, so the only real URL is the running server's.
    await port.fill('0');
    expect(await url.inputValue()).toBe('http://127.0.0.1:3210/mcp');
    await page.getByText('The port changes at every start (port 0); this is the current one.').waitFor();
    // Another port: the URL it will have, said to apply after a restart.
    await port.fill('3211');
    expect(await url.inputValue()).toBe('http://127.0.0.1:3211/mcp');
    await page.getByText('After saving and restarting. The server runs at http://127.0.0.1:3210/mcp until then.').waitFor();
    await page.getByRole('button', { name: 'Copy MCP URL' }).click();
    expect(copied.at(-1)).toBe('http://127.0.0.1:3211/mcp');

    // Fixing it clears the error; discarding returns to the saved state.
    await page.getByText('Unsaved changes').waitFor();
    expect(await error.count()).toBe(0);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByText('All changes saved').waitFor();
    expect(await port.inputValue()).toBe('3210');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('warns next to dangerous grants', async () => {
    startWith({});
    const { page } = await openWindow();
    await page.getByRole('textbox', { name: 'Host', exact: true }).fill('0.0.0.0');
    await page.getByText('Other computers on the network can reach this server').waitFor();
    await nav(page, 'Commands').click();
    await page.getByRole('switch', { name: 'Allow running commands' }).check();
    await page.getByLabel('Program name or path').fill('*');
    await page.getByRole('button', { name: 'Add program' }).click();
    await page.getByText('Any program on this computer can be run').waitFor();
    await nav(page, 'Files').click();
    picks.push(home, '/');
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.getByText('Shares your whole home folder').waitFor();
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.getByText('Shares the entire file system').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'warnings-files.png') });
    await nav(page, 'Commands').click();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'warnings-commands.png') });
    await page.context().close();
  });

  it('opens at the first invalid field of a saved file, with the page title in view', async () => {
    startWith({});
    fs.writeFileSync(configPath, JSON.stringify({ server: { port: 3210 }, filesystem: { roots: ['relative/folder'] } }));
    const { page, errors } = await openWindow();
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
    await page.getByText('expected an absolute path').first().waitFor();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id))
      .toBe('field-filesystem-roots-0-path');
    // The title stays visible: the page is not scrolled past it to reach a field that fits anyway.
    expect(await page.locator('.page').evaluate((el) => el.scrollTop)).toBe(0);
    expect(await page.getByRole('heading', { level: 1, name: 'Files' }).isVisible()).toBe(true);
    await page.getByText('Fix 1 problem to save').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'invalid-file.png') });
    await page.getByRole('button', { name: 'Remove relative/folder' }).click();
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(configSchema.parse(JSON.parse(fs.readFileSync(configPath, 'utf8'))).filesystem.roots).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows each folder’s effective access: read-only while “Write files” is off', async () => {
    startWith({ filesystem: { write: false, roots: [{ path: sharedFolder, readOnly: false }] } });
    const { page, errors } = await openWindow();
    await nav(page, 'Files').click();
    const access = page.getByLabel(`Access to ${sharedFolder}`, { exact: false });
    await page.getByText('“Write files” is off, so every folder is read-only').waitFor();
    expect(await access.textContent()).toBe('Read only');
    expect(await page.getByRole('combobox', { name: `Access to ${sharedFolder}` }).count()).toBe(0);
    expect(await page.getByText('Read and write').count()).toBe(0);

    // With writing on, the folder's own choice is back, as saved; reading off makes it "Write only".
    await page.getByRole('switch', { name: 'Write files' }).check();
    const select = page.getByRole('combobox', { name: `Access to ${sharedFolder}` });
    expect(await select.inputValue()).toBe('write');
    expect(await select.locator('option:checked').textContent()).toBe('Read and write');
    await page.getByRole('switch', { name: 'Read files' }).uncheck();
    expect(await select.locator('option:checked').textContent()).toBe('Write only');
    await page.getByRole('switch', { name: 'Write files' }).uncheck();
    expect(await access.textContent()).toBe('No access');
    await page.getByText('with “Read files” off too, nothing can be seen').waitFor();
    await page.getByRole('switch', { name: 'Read files' }).check();
    expect(await access.textContent()).toBe('Read only');
    await screenshotWholeSection(page, path.join(SCREENSHOTS, 'files-write-off.png'));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says what is true about commands: only the working folder is checked, and a running program reaches what the sandbox allows', async () => {
    startWith({ shell: { enabled: true, allowedCommands: ['*'] } });
    const { page, errors } = await openWindow();
    await nav(page, 'Commands').click();
    await page.getByText('Only the folder they start in must be a shared folder').waitFor();
    expect(await page.getByText('inside the shared folders').count()).toBe(0);
    // "auto" on Linux is the workspace sandbox: neither the Access card nor the "*" warning may claim the account's full reach.
    await page.getByText('Once running, a program stays in the sandbox: it can write only in writable shared folders and a private temp folder').waitFor();
    await page.getByText('Any program on this computer can be run, and run any code, within the sandbox').waitFor();
    expect(await page.getByText('anything your account can').count()).toBe(0);
    expect(await page.getByText("your account's rights").count()).toBe(0);

    await page.getByRole('combobox', { name: 'Mode', exact: true }).selectOption('read-only');
    await page.getByText('Once running, a program stays in the sandbox: it can write only in a private temp folder').waitFor();

    await page.getByRole('combobox', { name: 'Mode', exact: true }).selectOption('off');
    await page.getByText("Once running, a program has your account's rights: it can reach anything your account can, not just the shared folders.").waitFor();
    await page.getByText("Any program on this computer can be run, with your account's rights: anything your account can reach.").waitFor();
    expect(await page.getByText('stays in the sandbox').count()).toBe(0);
    expect(await page.getByText('within the sandbox').count()).toBe(0);
    await screenshotWholeSection(page, path.join(SCREENSHOTS, 'commands-sandbox-off.png'));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  // They list every process of the machine; one took past the default 30 s in a full run beside two other test runs.
  describe('the Processes page follows the grants and the process rules', { timeout: 60_000 }, () => {
    it('with both grants off: no list and nothing to end', async () => {
      startWith({ process: { list: false, kill: false } });
      const { page, errors } = await openWindow();
      await nav(page, 'Processes').click();
      await page.getByText('Process listing is off. Turn on "List processes", save, and restart the server.').waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^End/ }).count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it('with listing only: the list, whole command lines, and no "End…" anywhere', async () => {
      startWith({ process: { list: true, kill: false } });
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'settings-window-list-marker', `--file=${LONG_PATH}`], { stdio: 'ignore' });
      try {
        const { page, errors } = await openWindow();
        await nav(page, 'Processes').click();
        const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(child.pid), exact: true }) });
        await row.waitFor();
        await page.getByText('Ending processes is off for the running server').waitFor();
        expect(await page.getByRole('button', { name: /^End/ }).count()).toBe(0);
        expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
        // The command line is shown whole (wrapped, not cut), its useful end included.
        const commandLine = row.getByRole('cell').nth(3);
        expect(await commandLine.textContent()).toContain(`--file=${LONG_PATH}`);
        expect(await fitsInItsBox(commandLine)).toBe(true);
        await screenshotWholeSection(page, path.join(SCREENSHOTS, 'processes-list-only.png'));
        if (linux) {
          // A kernel thread has no command line: it is shown by name, like ps does, not as an empty cell.
          const kthreadd = page.getByRole('row').filter({ has: page.getByRole('cell', { name: '2', exact: true }) });
          if ((await kthreadd.count()) > 0) expect(await kthreadd.getByRole('cell').nth(3).textContent()).toBe('[kthreadd]');
        }
        expect(errors).toEqual([]);
        await page.context().close();
      } finally {
        child.kill('SIGKILL');
      }
    });

    it('with ending on: "End…" only where process.kill would work, and it really ends the process', async () => {
      startWith({ process: { list: true, kill: true } });
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'settings-window-kill-marker'], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      try {
        const { page, errors } = await openWindow();
        await nav(page, 'Processes').click();
        const rowOf = (pid: number) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(pid), exact: true }) });
        await rowOf(child.pid!)
          .getByRole('button', { name: `End process ${child.pid} (node)` })
          .waitFor();
        await page.getByText(/“End…” is offered for processes this user may signal, except this server, the programs that started it/).waitFor();
        // The server (this process here), its parent, pid 1: listed, never offered.
        for (const pid of [process.pid, process.ppid, 1]) {
          const row = rowOf(pid);
          if ((await row.count()) === 0) continue;
          expect(await row.getByRole('button', { name: /^End/ }).count(), `pid ${pid}`).toBe(0);
          expect(await row.getByText('Protected').count(), `pid ${pid}`).toBe(1);
        }
        expect(await rowOf(1).textContent()).toContain('This process is the init process and is never signalled.');
        expect(await rowOf(process.pid).textContent()).toContain('This process is this MCP server');
        if (linux && (await rowOf(2).count()) > 0) expect(await rowOf(2).textContent()).toContain('This process is a kernel thread.');

        await rowOf(child.pid!)
          .getByRole('button', { name: `End process ${child.pid} (node)` })
          .click();
        await rowOf(child.pid!)
          .getByRole('button', { name: `End ${child.pid}`, exact: true })
          .click();
        expect(await exited).toBe('SIGTERM');
        await page.getByText(`Sent SIGTERM to process ${child.pid}.`).waitFor();

        // An unsaved switch turned off hides the action at once; turning listing off hides the list.
        await page.getByRole('switch', { name: 'End processes' }).uncheck();
        expect(await page.getByRole('button', { name: /^End process/ }).count()).toBe(0);
        await page.getByText('Ending processes is turned off here').waitFor();
        await page.getByRole('switch', { name: 'List processes' }).uncheck();
        await page.getByText('Process listing is turned off here').waitFor();
        expect(await page.getByRole('table').count()).toBe(0);
        expect(errors).toEqual([]);
        await page.context().close();
      } finally {
        child.kill('SIGKILL');
      }
    });

    it('a grant switched off and saved counts at once, before any restart', async () => {
      startWith({ process: { list: true, kill: true } });
      const { page, errors } = await openWindow();
      await nav(page, 'Processes').click();
      await page
        .getByRole('button', { name: /^End process/ })
        .first()
        .waitFor();
      await page.getByRole('switch', { name: 'End processes' }).uncheck();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('All changes saved').waitFor();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText('Ending processes is off for the running server').waitFor();
      expect(await page.getByRole('button', { name: /^End process/ }).count()).toBe(0);
      expect(await processes.kill(process.pid, 'SIGTERM')).toMatchObject({ ok: false, error: expect.stringContaining('Ending processes is off') });
      expect(errors).toEqual([]);
      await page.context().close();
    });
  });

  it('read-only pages have no Save or Discard, and point to unsaved changes elsewhere', async () => {
    startWith({});
    const { page, errors } = await openWindow();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const discard = page.getByRole('button', { name: 'Discard changes' });
    for (const title of ['Activity', 'Connected clients']) {
      await nav(page, title).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await save.count(), title).toBe(0);
      expect(await discard.count(), title).toBe(0);
    }
    // Pages with settings keep them (the ChatGPT page has the tunnel's settings).
    for (const title of ['Connection', 'ChatGPT', 'Files', 'Commands', 'Processes', 'Desktop', 'Services']) {
      await nav(page, title).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await save.count(), title).toBe(1);
    }
    await nav(page, 'Services').click();
    await page.getByRole('switch', { name: 'Start, stop and restart these services' }).check();
    await nav(page, 'Activity').click();
    await page.getByText('Unsaved changes in Services. This page has nothing to save').waitFor();
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { level: 1, name: 'Services' }).waitFor();
    expect(await save.isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('Activity shows whole targets, wrapped, with the file name at the end', async () => {
    startWith({});
    const { page } = await openWindow();
    await nav(page, 'Activity').click();
    // The ring keeps both ends of a long value; the window then shows all of what it kept.
    const cell = page.getByRole('cell', { name: /^path=\/home\/me\/projects\/.*….*ProcessesSectionWithAVeryLongName\.tsx$/ });
    await cell.waitFor();
    expect(await fitsInItsBox(cell)).toBe(true);
    expect(await cell.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(20);
    await page.context().close();
  });

  it('dark mode: the read-only URL does not look like a field, and a disabled Save does not look enabled', async () => {
    startWith({});
    for (const scheme of ['light', 'dark'] as const) {
      const { page } = await openWindow(scheme);
      const style = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => {
            type Style = { backgroundColor: string; borderTopColor: string; color: string };
            const s = (globalThis as unknown as { getComputedStyle(e: unknown): Style }).getComputedStyle(el);
            return { background: s.backgroundColor, border: s.borderTopColor, color: s.color };
          });
      const url = await style('#mcp-url');
      const host = await style('#field-server-host');
      expect(url.background, scheme).not.toBe(host.background);
      expect(url.border, scheme).toBe('rgba(0, 0, 0, 0)');
      expect(host.border, scheme).not.toBe('rgba(0, 0, 0, 0)');

      const disabled = await style('.action-bar .button.primary');
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
      const enabled = await style('.card-actions .button.primary'); // "Test connection"
      expect(disabled.background, scheme).not.toBe(enabled.background);
      expect(contrast(disabled.color, disabled.background), scheme).toBeLessThan(contrast(enabled.color, enabled.background));
      // The disabled button is grey: no channel dominates its background (the accent green would).
      expect(saturation(disabled.background), scheme).toBeLessThan(0.2);
      await page.context().close();
    }
  });

  it('renders every page, light and dark, for the screenshots', async () => {
    // A realistic config: something granted on each page, so no page is only its empty state.
    startWith({
      server: { auth: 'bearer+oauth', token: 'x'.repeat(32) },
      filesystem: { write: true, roots: [sharedFolder, { path: path.join(home, 'Documents'), readOnly: true }] },
      shell: { enabled: true, allowedCommands: ['git', 'npm'] },
      process: { list: true, kill: true, ownOnly: true },
      desktop: { hostDisplayAccess: true, screen: true },
      services: { allowed: ['nginx.service'] },
      chatgpt: { searchFetch: true },
    });
    await connectClients();
    for (const scheme of ['light', 'dark'] as const) {
      const { page, errors } = await openWindow(scheme);
      for (const [title, file] of [
        ['Connection', 'connection'],
        ['ChatGPT', 'chatgpt'],
        ['Files', 'files'],
        ['Commands', 'commands'],
        ['Processes', 'processes'],
        ['Desktop', 'desktop'],
        ['Services', 'services'],
        ['Activity', 'activity'],
        ['Connected clients', 'clients'],
      ] as const) {
        await nav(page, title).click();
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        if (title === 'Connection') {
          await page.getByRole('button', { name: 'Test connection' }).click();
          await page.getByText(/tools available/).waitFor();
        }
        if (title === 'ChatGPT') await page.getByRole('status', { name: 'Tunnel client status' }).getByText('No tunnel client found').waitFor();
        if (title === 'Processes') await page.getByRole('columnheader', { name: 'Command line' }).waitFor();
        if (title === 'Activity') {
          await page.getByRole('cell', { name: 'fs.read' }).first().waitFor();
          await page.getByText('by ChatGPT').first().waitFor();
        }
        if (title === 'Connected clients') {
          // A request arrives while the owner looks: the prompt shows on this page (and would on every other).
          const code = await askToConnect('ChatGPT');
          await push(page, 'connections', oauth.list());
          await page.getByRole('button', { name: `Approve ${code}` }).waitFor();
          await page
            .getByRole('cell', { name: /Claude Desktop/ })
            .first()
            .waitFor();
        }
        expect(await unnamedControls(page), `${title}: controls without a label`).toEqual([]);
        await screenshotWholeSection(page, path.join(SCREENSHOTS, `${file}${scheme === 'dark' ? '-dark' : ''}.png`));
      }
      for (const request of oauth.list().pending) await oauth.deny(request.code);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  }, 90_000);

  const clientIds = new Map<string, string>();
  const redirectFor = (name: string) =>
    name === 'ChatGPT' ? 'https://chatgpt.com/connector_platform_oauth_redirect' : 'https://claude.ai/api/mcp/auth_callback';

  /** Two OAuth clients registered with the real server; Claude Desktop asked and was approved. */
  async function connectClients(): Promise<void> {
    for (const name of ['Claude Desktop', 'ChatGPT']) {
      if (clientIds.has(name)) continue;
      const registered = await fetch(`${new URL(oauthServer.url).origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: name, redirect_uris: [redirectFor(name)] }),
      });
      clientIds.set(name, ((await registered.json()) as { client_id: string }).client_id);
    }
    if (!oauth.list().clients.some((c) => c.name === 'Claude Desktop' && c.approvedAt)) {
      expect(await oauth.approve(await askToConnect('Claude Desktop'))).toMatchObject({ ok: true });
    }
  }

  /** Opens the authorize page as the client's browser would; returns the code the owner is shown. */
  async function askToConnect(name: string): Promise<string> {
    const authorize = new URL(`${new URL(oauthServer.url).origin}/oauth/authorize`);
    const query = {
      response_type: 'code',
      client_id: clientIds.get(name)!,
      redirect_uri: redirectFor(name),
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'abc',
      resource: oauthServer.url,
    };
    for (const [k, v] of Object.entries(query)) authorize.searchParams.set(k, v);
    expect((await fetch(authorize)).status).toBe(200);
    const request = oauth.list().pending.find((p) => p.clientName === name);
    if (!request) throw new Error(`no pending request for ${name}`);
    return request.code;
  }
});

/** A sidebar entry; its accessible name may go on with a problem count. */
function nav(page: Page, title: string) {
  return page.getByLabel('Settings sections').getByRole('button', { name: new RegExp(`^${title}`) });
}

/** The element's text is not cut off: nothing overflows its box sideways. */
function fitsInItsBox(locator: ReturnType<Page['locator']>): Promise<boolean> {
  return locator.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
}

/** Form controls and buttons on the page that have no accessible name (by label, text or aria-label). */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Control = { tagName: string; id: string; labels?: ArrayLike<unknown> | null; textContent: string | null; getAttribute(n: string): string | null };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Control> } }).document;
    return Array.from(doc.querySelectorAll('input, select, textarea, button'))
      .filter((el) => !(el.labels && el.labels.length > 0) && !el.getAttribute('aria-label') && !(el.tagName === 'BUTTON' && el.textContent?.trim()))
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}`);
  });
}

/** Grows the viewport to the section's full height for the picture, then restores it. */
async function screenshotWholeSection(page: Page, file: string): Promise<void> {
  const size = page.viewportSize()!;
  type Scroller = { scrollTo(x: number, y: number): void; scrollHeight: number; clientHeight: number };
  const extra = await page.evaluate(() => {
    const main = (globalThis as unknown as { document: { querySelector(s: string): Scroller } }).document.querySelector('.page');
    main.scrollTo(0, 0);
    return main.scrollHeight - main.clientHeight;
  });
  await page.setViewportSize({ width: size.width, height: size.height + Math.max(0, extra) });
  await page.screenshot({ path: file });
  await page.setViewportSize(size);
}

function rgb(css: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b];
}

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = rgb(css).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** HSL saturation of a CSS rgb() colour, 0 (grey) to 1. */
function saturation(css: string): number {
  const [r, g, b] = rgb(css).map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  return max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
}

function sampleActivity(): ActivityRing {
  let clock = Date.parse('2026-07-28T09:41:00Z');
  const ring = new ActivityRing(
    200,
    () => [],
    () => new Date((clock += 1700)),
  );
  const calls: Array<[string, Record<string, unknown>, number, string]> = [
    ['system.info', {}, 1.2, 'ok'],
    ['fs.list', { path: '/home/me/projects' }, 3.4, 'ok'],
    ['fs.read', { path: '/home/me/projects/app/README.md', content: 'never shown' }, 2.1, 'ok'],
    ['shell.exec', { command: 'git', args: ['status', '--short'], env: { SECRET: 'x' } }, 48.6, 'ok'],
    ['fs.read', { path: '/etc/shadow' }, 0.4, 'PATH_NOT_ALLOWED'],
    ['shell.exec', { command: 'curl', args: ['https://example.com'] }, 0.3, 'COMMAND_NOT_ALLOWED'],
    ['fs.write', { path: '/home/me/projects/app/notes.md', content: 'secret text' }, 5.8, 'ok'],
    ['process.list', { match: 'node' }, 22.5, 'ok'],
    ['fs.read', { path: LONG_PATH }, 1.9, 'ok'],
  ];
  calls.forEach(([tool, target, durationMs, outcome], id) => {
    const client = id % 3 === 2 ? 'bearer token' : 'ChatGPT';
    ring.record({ phase: 'start', tool, id, target, client });
    ring.record({ phase: 'end', tool, id, target, client, durationMs, outcome: outcome as 'ok' });
  });
  ring.record({ phase: 'start', tool: 'shell.exec', id: 99, target: { command: 'npm', args: ['test'] } });
  return ring;
}
