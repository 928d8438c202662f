/**
 * Serving the built settings window to headless Chromium with a stand-in preload: every bridge
 * call goes to the test process (page.exposeFunction), which runs the real main-process modules,
 * as the real preload forwards to the main process over IPC.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp, REPO } from '../../tray/helpers/build-app.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../../tray/helpers/desktop.js';
import type { NavigateRequest, SettingsSnapshot } from '../../../main/tray/bridge-api.js';
import { readConfigForEditing } from '../../../main/tray/config-file.js';
import { saveSettings } from '../../../main/tray/settings-save.js';
import { silentLogger } from '../../../main/log.js';

export const SCREENSHOTS = path.join(REPO, 'test-artifacts', 'screenshots');

export interface OpenWindow {
  browser: Browser;
  /** The built settings window, served from loopback. */
  pageUrl: string;
  close(): Promise<void>;
}

/**
 * Builds the app, serves its settings window on loopback and starts headless Chromium with
 * `home` as its HOME (its profile and caches never land in the real home directory).
 */
export async function serveWindow(home: string): Promise<OpenWindow> {
  const app = await buildApp();
  const staticServer = await serveDirectory(app.rendererDir);
  const pageUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/index.html`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
  });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    browser,
    pageUrl,
    async close() {
      await browser.close();
      await new Promise((resolve) => staticServer.close(resolve));
      app.cleanup();
    },
  };
}

/** One describe block's window: a temp folder (its HOME, with `configPath` in it) and the served window, made before its tests and removed after. */
export interface SuiteWindow {
  temp: string;
  configPath: string;
  browser: Browser;
  pageUrl: string;
}

export function settingsWindowForSuite(prefix: string): SuiteWindow {
  const suite = {} as SuiteWindow;
  let window: OpenWindow | undefined;
  beforeAll(async () => {
    suite.temp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    suite.configPath = path.join(suite.temp, 'config.json');
    window = await serveWindow(suite.temp);
    Object.assign(suite, { browser: window.browser, pageUrl: window.pageUrl });
  }, 180_000);
  afterAll(async () => {
    await window?.close();
    if (suite.temp) fs.rmSync(suite.temp, { recursive: true, force: true });
  });
  return suite;
}

/** What the tray's `load` answers for this config file, read as the tray reads it: Linux, the server stopped, opened at `navigate`. */
export function loadSnapshot(
  configPath: string,
  homeDir: string,
  navigate: NavigateRequest | null,
  more: Partial<Pick<SettingsSnapshot, 'platform' | 'status'>> = {},
): SettingsSnapshot {
  return { configPath, ...readConfigForEditing(configPath), homeDir, platform: 'linux', status: { state: 'stopped' }, overrides: [], navigate, ...more };
}

/** What the window asks in the background on every page, answered empty unless a test says otherwise. */
const BACKGROUND: Record<string, (args: unknown[]) => unknown> = {
  listActivity: () => [],
  listConnections: () => ({ clients: [], pending: [] }),
};

/**
 * One page's bridge: `load` opens the config file at `section`, `save` is the tray's own Save,
 * `own` answers the rest the page needs; a call nobody answers fails the test.
 */
export function pageBridge(
  suite: Pick<SuiteWindow, 'configPath' | 'temp'>,
  section: NavigateRequest['section'],
  own: Record<string, (args: unknown[]) => unknown> = {},
): (name: string, args: unknown[]) => Promise<unknown> {
  const handlers: Record<string, (args: unknown[]) => unknown> = {
    ...BACKGROUND,
    load: () => loadSnapshot(suite.configPath, suite.temp, { section }),
    save: (args) => saveSettings(suite.configPath, args[0] as Record<string, unknown>, silentLogger),
    ...own,
  };
  return async (name, args) => {
    const handler = handlers[name];
    if (!handler) throw new Error(`unexpected bridge call ${name}`);
    return handler(args);
  };
}

/** Every invoke method of SettingsBridge (main/tray/bridge-api.ts), forwarded to `__bridge`. */
export const BRIDGE_METHODS = [
  'load',
  'save',
  'tokenInUse',
  'replaceToken',
  'folderKinds',
  'copyText',
  'pickFolder',
  'testConnection',
  'restartServer',
  'listActivity',
  'searchAudit',
  'listProcesses',
  'killProcess',
  'listConnections',
  'approveConnection',
  'denyConnection',
  'revokeClient',
  'tunnelStatus',
  'tunnelConnect',
  'tunnelDisconnect',
  'tunnelSetKey',
  'tunnelForgetKey',
  'tunnelLookUp',
  'tunnelPickClient',
  'tunnelDownload',
  'openLink',
  'gatewayStatus',
  'gatewayAccept',
  'gatewaySetSecret',
  'gatewayStoredSecrets',
  'listChanges',
  'showChanges',
  'undoChanges',
  'detectChecks',
] as const;

/** Runs in the page before its scripts: defines window.chatgptMcp like the preload does. */
export function bridgeInit(methods: readonly string[]): void {
  const call = (method: string, args: unknown[]) => (globalThis as unknown as { __bridge(m: string, a: unknown[]): Promise<unknown> }).__bridge(method, args);
  const listeners: Record<string, Set<(value: unknown) => void>> = {};
  const on = (name: string) => (listener: (value: unknown) => void) => {
    (listeners[name] ??= new Set()).add(listener);
    return () => listeners[name]!.delete(listener);
  };
  (globalThis as unknown as { __emit(name: string, value: unknown): void }).__emit = (name, value) => listeners[name]?.forEach((l) => l(value));
  const dirty = { value: false };
  (globalThis as unknown as { __dirty: typeof dirty }).__dirty = dirty;
  const bridge: Record<string, unknown> = {
    setDirty: (value: boolean) => void (dirty.value = value),
    onStatus: on('status'),
    onActivity: on('activity'),
    onNavigate: on('navigate'),
    onConnections: on('connections'),
    onTunnel: on('tunnel'),
  };
  // Optional trailing arguments left out, as the preload's ipcRenderer.invoke would send them.
  for (const name of methods)
    bridge[name] = (...args: unknown[]) =>
      call(
        name,
        args.filter((a) => a !== undefined),
      );
  (globalThis as unknown as { chatgptMcp: unknown }).chatgptMcp = Object.freeze(bridge);
}

/**
 * A new page of the built window whose bridge calls go to `bridge` (as the preload forwards
 * them to the main process), with page and console errors collected in `errors`.
 */
export async function openPage(
  browser: Browser,
  pageUrl: string,
  bridge: (method: string, args: unknown[]) => Promise<unknown>,
  errors: string[],
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1000, height: options.height ?? 720 },
    deviceScaleFactor: 1,
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.exposeFunction('__bridge', bridge);
  await page.addInitScript(bridgeInit, [...BRIDGE_METHODS]);
  await page.goto(pageUrl);
  return page;
}

/** What the main process pushes over IPC (status, activity, connections...). */
export function push(page: Page, name: string, value: unknown): Promise<void> {
  return page.evaluate(([n, v]) => (globalThis as unknown as { __emit(n: string, v: unknown): void }).__emit(n as string, v), [name, value] as const);
}

export function serveDirectory(dir: string): Promise<http.Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^([/\\])+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
