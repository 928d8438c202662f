/**
 * The built settings window in real headless Chromium. The preload's API is stood in for by
 * an init script whose every call goes to this test process (page.exposeFunction) and runs
 * the real main-process modules: readConfigForEditing, saveConfig writing to a temp dir, a
 * real MCP server for "Test connection", the real adapter's process list, a real activity
 * ring. Screenshots of every section land in test-artifacts/screenshots/.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { ConfigValidationError, saveConfig } from '../../main/config/save.js';
import { configSchema } from '../../main/config/schema.js';
import { silentLogger } from '../../main/log.js';
import { startHttpServer, type RunningHttpServer } from '../../main/mcp/http.js';
import { createServerFactory } from '../../main/mcp/server.js';
import { ActivityRing } from '../../main/app/activity-ring.js';
import type { SaveResult, ServerStatus, SettingsSnapshot } from '../../main/app/bridge-api.js';
import { readConfigForEditing } from '../../main/app/config-file.js';
import { testConnection } from '../../main/app/connection-test.js';
import { ProcessPanel } from '../../main/app/process-panel.js';
import { ProcessPolicy } from '../../main/policy/process.js';
import { generateToken } from '../../main/config/token.js';
import { buildApp, REPO, type BuiltApp } from '../app/helpers/build-app.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../app/helpers/desktop.js';

const SCREENSHOTS = path.join(REPO, 'test-artifacts', 'screenshots');
const available = chromiumAvailable();

/** Defines window.chatgptMcp in the page, forwarding to the test process like the preload forwards to main. */
const BRIDGE_INIT = () => {
  const call = (method: string, ...args: unknown[]) =>
    (globalThis as unknown as { __bridge(m: string, a: unknown[]): Promise<unknown> }).__bridge(method, args);
  const listeners: Record<string, Set<(value: unknown) => void>> = { status: new Set(), activity: new Set(), navigate: new Set(), connections: new Set() };
  const on = (name: string) => (listener: (value: unknown) => void) => {
    listeners[name]!.add(listener);
    return () => listeners[name]!.delete(listener);
  };
  (globalThis as unknown as { __emit(name: string, value: unknown): void }).__emit = (name, value) => listeners[name]!.forEach((l) => l(value));
  const dirty = { value: false };
  (globalThis as unknown as { __dirty: typeof dirty }).__dirty = dirty;
  (globalThis as unknown as { chatgptMcp: unknown }).chatgptMcp = Object.freeze({
    load: () => call('load'),
    save: (config: unknown) => call('save', config),
    generateToken: () => call('generateToken'),
    copyText: (text: string) => call('copyText', text),
    pickFolder: () => call('pickFolder'),
    testConnection: () => call('testConnection'),
    restartServer: () => call('restartServer'),
    listActivity: () => call('listActivity'),
    listProcesses: (match?: string) => call('listProcesses', match),
    killProcess: (pid: number, signal: string) => call('killProcess', pid, signal),
    listConnections: () => call('listConnections'),
    approveConnection: (code: string) => call('approveConnection', code),
    denyConnection: (code: string) => call('denyConnection', code),
    revokeClient: (id: string) => call('revokeClient', id),
    setDirty: (value: boolean) => void (dirty.value = value),
    onStatus: on('status'),
    onActivity: on('activity'),
    onNavigate: on('navigate'),
    onConnections: on('connections'),
  });
};

describe.skipIf(!available)('settings window in headless Chromium', () => {
  let app: BuiltApp;
  let browser: Browser;
  let staticServer: http.Server;
  let pageUrl: string;
  let mcp: RunningHttpServer;
  let temp: string;
  let home: string;
  let configPath: string;
  let sharedFolder: string;
  const copied: string[] = [];
  /** Folders the "native picker" returns next; the shared folder when empty. */
  const picks: string[] = [];

  beforeAll(async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-window-'));
    home = path.join(temp, 'home');
    sharedFolder = path.join(home, 'projects');
    fs.mkdirSync(sharedFolder, { recursive: true });
    configPath = path.join(home, '.config', 'chatgpt-mcp', 'config.json');

    // A real server for "Test connection", with process tools on so the tool count is telling.
    const serverConfig = configSchema.parse({ server: { port: 0, auth: 'none' }, process: { list: true, kill: true } });
    mcp = await startHttpServer({
      config: serverConfig,
      logger: silentLogger,
      factory: createServerFactory({ config: serverConfig, adapter: createLocalAdapter(), logger: silentLogger }),
    });

    app = await buildApp();
    staticServer = await serveDirectory(app.rendererDir);
    pageUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/index.html`;
    // Chromium's own HOME, so its profile and caches never land in the real home directory.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
    });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => staticServer?.close(resolve));
    await mcp?.close();
    app?.cleanup();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function openWindow(colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 720 }, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.exposeFunction('__bridge', (method: string, args: unknown[]) => bridge(method, args));
    await page.addInitScript(BRIDGE_INIT);
    await page.goto(pageUrl);
    // Loaded: the sidebar shows the config file the bridge reported.
    await page.getByText(configPath, { exact: true }).waitFor();
    return { page, errors };
  }

  const running: ServerStatus = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 10, auth: false };
  const panelConfig = configSchema.parse({ process: { list: true, kill: true } });
  const localAdapter = createLocalAdapter();
  const processes = new ProcessPanel(localAdapter.processes, () => new ProcessPolicy(panelConfig, localAdapter.inspect));
  const ring = sampleActivity();

  async function bridge(method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case 'load': {
        const snapshot: SettingsSnapshot = {
          configPath,
          ...readConfigForEditing(configPath),
          homeDir: home,
          platform: 'linux',
          status: running,
          overrides: [],
          navigate: null,
        };
        return snapshot;
      }
      case 'save':
        try {
          await saveConfig(configPath, args[0]);
          return { ok: true, configPath } satisfies SaveResult;
        } catch (error) {
          if (error instanceof ConfigValidationError)
            return { ok: false, issues: error.issues, error: 'Some settings are invalid; nothing was saved.' } satisfies SaveResult;
          throw error;
        }
      case 'generateToken':
        return generateToken();
      case 'copyText':
        copied.push(String(args[0]));
        return undefined;
      case 'pickFolder':
        return picks.shift() ?? sharedFolder;
      case 'testConnection':
        return testConnection({ url: mcp.url });
      case 'restartServer':
        return running;
      case 'listActivity':
        return ring.list();
      case 'listProcesses':
        return processes.list(args[0] as string | undefined);
      case 'killProcess':
        return { ok: false, error: 'not in this test' };
      case 'listConnections':
        return { clients: [], pending: [] };
      default:
        throw new Error(`unknown bridge method ${method}`);
    }
  }

  it('adds a root, grants display and screen, allows a command, and saves exactly that', async () => {
    const { page, errors } = await openWindow();
    await page.getByRole('heading', { level: 1, name: 'Connection' }).waitFor();
    await page.getByText('All changes saved').waitFor();

    await nav(page, 'Files').click();
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.getByRole('cell', { name: sharedFolder, exact: true }).waitFor();
    await page.getByLabel(`Access to ${sharedFolder}`).selectOption('write');

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
    await page.getByRole('listitem').filter({ hasText: 'git' }).waitFor();

    await page.getByText('Unsaved changes').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { __dirty: { value: boolean } }).__dirty.value)).toBe(true);
    expect(fs.existsSync(configPath)).toBe(false);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. The running server keeps its current settings').waitFor();
    await page.getByText('All changes saved').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'after-save.png') });

    const written = configSchema.parse(JSON.parse(fs.readFileSync(configPath, 'utf8')));
    const expected = configSchema.parse({
      filesystem: { roots: [{ path: sharedFolder, readOnly: false }] },
      desktop: { hostDisplayAccess: true, screen: true },
      shell: { enabled: true, allowedCommands: ['git'] },
    });
    expect(written).toEqual(expected);
    if (process.platform !== 'win32') expect(fs.statSync(configPath).mode & 0o777).toBe(0o600);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows an invalid port next to the field, blocks saving and writes nothing', async () => {
    const { page, errors } = await openWindow();
    const before = fs.readFileSync(configPath);
    const mtime = fs.statSync(configPath).mtimeMs;

    const port = page.getByRole('textbox', { name: 'Port', exact: true });
    await port.fill('70000');
    const error = page.locator('#field-server-port-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('enter a port number from 0 to 65535');
    expect(await port.getAttribute('aria-invalid')).toBe('true');
    expect(await port.getAttribute('aria-describedby')).toContain('field-server-port-error');
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

    // Fixing it clears the error; discarding returns to the saved state.
    await port.fill('3211');
    await page.getByText('Unsaved changes').waitFor();
    expect(await error.count()).toBe(0);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByText('All changes saved').waitFor();
    expect(await port.inputValue()).toBe('3210');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('warns next to dangerous grants', async () => {
    const { page } = await openWindow();
    await page.getByRole('textbox', { name: 'Host', exact: true }).fill('0.0.0.0');
    await page.getByText('Other computers on the network can reach this server').waitFor();
    await nav(page, 'Commands').click();
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

  it('opens at the first invalid field of a saved file and shows why', async () => {
    fs.mkdirSync(path.dirname(configPath), { recursive: true });
    fs.writeFileSync(configPath, JSON.stringify({ server: { port: 3210 }, filesystem: { roots: ['relative/folder'] } }));
    const { page, errors } = await openWindow();
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
    await page.getByText('expected an absolute path').first().waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id)).toBe(
      'field-filesystem-roots-0-path',
    );
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

  it('renders every section, light and dark, for the screenshots', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, errors } = await openWindow(scheme);
      for (const [title, file] of [
        ['Connection', 'connection'],
        ['Files', 'files'],
        ['Commands', 'commands'],
        ['Processes', 'processes'],
        ['Desktop', 'desktop'],
        ['Services', 'services'],
        ['Activity', 'activity'],
      ] as const) {
        await nav(page, title).click();
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        if (title === 'Connection') {
          await page.getByRole('button', { name: 'Test connection' }).click();
          await page.getByText(/tools available/).waitFor();
        }
        if (title === 'Processes') await page.getByRole('columnheader', { name: 'Command line' }).waitFor();
        if (title === 'Activity') {
          await page.getByRole('cell', { name: 'fs.read' }).first().waitFor();
          await page.getByText('by ChatGPT').first().waitFor();
        }
        expect(await unnamedControls(page), `${title}: controls without a label`).toEqual([]);
        await screenshotWholeSection(page, path.join(SCREENSHOTS, `${file}${scheme === 'dark' ? '-dark' : ''}.png`));
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }
  }, 60_000);
});

/** A sidebar entry; its accessible name may go on with a problem count. */
function nav(page: Page, title: string) {
  return page.getByLabel('Settings sections').getByRole('button', { name: new RegExp(`^${title}`) });
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
  ];
  calls.forEach(([tool, target, durationMs, outcome], id) => {
    const client = id % 3 === 2 ? 'bearer token' : 'ChatGPT';
    ring.record({ phase: 'start', tool, id, target, client });
    ring.record({ phase: 'end', tool, id, target, client, durationMs, outcome: outcome as 'ok' });
  });
  ring.record({ phase: 'start', tool: 'shell.exec', id: 99, target: { command: 'npm', args: ['test'] } });
  return ring;
}

function serveDirectory(dir: string): Promise<http.Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^([/\\])+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
