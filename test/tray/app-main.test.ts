/**
 * The thin Electron shell with `electron` mocked: window security settings, navigation and
 * permission refusals, the close-with-unsaved-changes prompt, IPC sender and payload checks,
 * and single-instance behaviour of the whole app (which runs the real server underneath).
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  // vi.hoisted runs before the imports above exist, so the module is required here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/consistent-type-imports
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  let nextId = 1;
  class FakeWebContents extends Emitter {
    id = nextId++;
    send = vi.fn();
    isLoading = () => false;
    openHandler: ((details: unknown) => unknown) | null = null;
    setWindowOpenHandler(handler: (details: unknown) => unknown) {
      this.openHandler = handler;
    }
  }
  class FakeBrowserWindow extends Emitter {
    static instances: FakeBrowserWindow[] = [];
    webContents = new FakeWebContents();
    destroyed = false;
    loadFile = vi.fn(async () => {});
    loadURL = vi.fn(async () => {});
    removeMenu = vi.fn();
    setDocumentEdited = vi.fn();
    show = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.instances.push(this);
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return false;
    }
  }
  class FakeIpcMain extends Emitter {
    handlers = new Map<string, (...args: unknown[]) => unknown>();
    handle(channel: string, handler: (...args: unknown[]) => unknown) {
      this.handlers.set(channel, handler);
    }
    removeHandler(channel: string) {
      this.handlers.delete(channel);
    }
  }
  class FakeApp extends Emitter {
    isPackaged = false;
    requestSingleInstanceLock = vi.fn(() => true);
    quit = vi.fn();
    whenReady = vi.fn(async () => {});
    getAppPath = vi.fn(() => process.cwd());
    setAppUserModelId = vi.fn();
    getLoginItemSettings = vi.fn(() => ({ openAtLogin: false }));
    setLoginItemSettings = vi.fn();
    dock = { hide: vi.fn() };
  }
  class FakeTray {
    static instances: FakeTray[] = [];
    setImage = vi.fn();
    setToolTip = vi.fn();
    setContextMenu = vi.fn();
    destroy = vi.fn();
    constructor() {
      FakeTray.instances.push(this);
    }
  }
  const session = {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    },
  };
  return {
    app: new FakeApp(),
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    ipcMain: new FakeIpcMain(),
    dialog: { showMessageBoxSync: vi.fn(() => 1), showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })) },
    clipboard: { writeText: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    nativeImage: { createFromPath: vi.fn((p: string) => ({ path: p })) },
    nativeTheme: { shouldUseDarkColors: false },
    systemPreferences: { isTrustedAccessibilityClient: vi.fn(() => true) },
    // No real backend, as on a Linux desktop without a keyring: the app falls back to the headless stores.
    safeStorage: { isAsyncEncryptionAvailable: vi.fn(async () => false), getSelectedStorageBackend: vi.fn(() => 'basic_text') },
    shell: { openExternal: vi.fn(async () => {}) },
    session,
    reset() {
      FakeBrowserWindow.instances.length = 0;
      FakeTray.instances.length = 0;
      this.ipcMain.handlers.clear();
      this.ipcMain.removeAllListeners();
      this.app.removeAllListeners();
      vi.clearAllMocks();
    },
  };
});

vi.mock('electron', () => electron);

const { SettingsWindow, DISCARD_PROMPT } = await import('../../main/tray/settings-window.js');
const { hardenContents, hardenSession, secureWebPreferences } = await import('../../main/tray/security.js');
const { registerIpc, REFUSED_SENDER } = await import('../../main/tray/ipc.js');
const { INVOKE, SEND } = await import('../../main/tray/ipc-channels.js');
const { runApp } = await import('../../main/tray/app-main.js');
const { silentLogger } = await import('../../main/log.js');

type FakeWindow = InstanceType<typeof electron.BrowserWindow>;
const windows = () => electron.BrowserWindow.instances as FakeWindow[];

beforeEach(() => electron.reset());

describe('settings window', () => {
  const options = { preload: '/app/out/app/preload/preload.cjs', indexFile: '/app/out/app/renderer/index.html', devTools: false };

  it('is created with an isolated, sandboxed, Node-free page and loads the built file', () => {
    const settings = new SettingsWindow(options);
    settings.open();
    expect(windows()).toHaveLength(1);
    const win = windows()[0]!;
    expect(win.options.webPreferences).toEqual(secureWebPreferences(options.preload, false));
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      devTools: false,
      preload: options.preload,
    });
    expect(win.options.show).toBe(false);
    expect(win.loadFile).toHaveBeenCalledWith(options.indexFile);
    expect(settings.expectedSender()).toEqual({ webContentsId: win.webContents.id, url: pathToFileURL(options.indexFile).href });
  });

  it('a second open focuses the same window and forwards where to go', () => {
    const settings = new SettingsWindow(options);
    settings.open({ section: 'files' });
    expect(settings.takeNavigation()).toEqual({ section: 'files' });
    expect(settings.takeNavigation()).toBeNull();
    settings.open({ section: 'activity' });
    expect(windows()).toHaveLength(1);
    const win = windows()[0]!;
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
    expect(win.webContents.send).toHaveBeenCalledWith('window:navigate', { section: 'activity' });
  });

  it('asks before closing over unsaved changes, and only then', () => {
    const settings = new SettingsWindow(options);
    settings.open();
    const win = windows()[0]!;
    const close = () => {
      const event = { preventDefault: vi.fn() };
      win.emit('close', event);
      return event.preventDefault;
    };
    expect(close()).not.toHaveBeenCalled();
    expect(electron.dialog.showMessageBoxSync).not.toHaveBeenCalled();

    settings.setDirty(true);
    expect(win.setDocumentEdited).toHaveBeenCalledWith(true);
    electron.dialog.showMessageBoxSync.mockReturnValueOnce(1); // Keep editing
    expect(close()).toHaveBeenCalled();
    expect(electron.dialog.showMessageBoxSync).toHaveBeenLastCalledWith(win, DISCARD_PROMPT);

    electron.dialog.showMessageBoxSync.mockReturnValueOnce(0); // Discard changes
    expect(close()).not.toHaveBeenCalled();
    win.emit('closed');
    expect(settings.isOpen).toBe(false);
    expect(settings.expectedSender()).toBeNull();
  });

  it('uses the dev server URL only when given one', () => {
    const settings = new SettingsWindow({ ...options, devUrl: 'http://localhost:5173/' });
    settings.open();
    expect(windows()[0]!.loadURL).toHaveBeenCalledWith('http://localhost:5173/');
    expect(settings.expectedSender()?.url).toBe('http://localhost:5173/');
  });
});

describe('web contents and session hardening', () => {
  it('denies navigation, redirects, webviews and new windows', () => {
    const contents = new (class extends EventEmitter {
      handler: ((d: unknown) => unknown) | null = null;
      setWindowOpenHandler(h: (d: unknown) => unknown) {
        this.handler = h;
      }
    })();
    hardenContents(contents as never);
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      contents.emit(name, event, 'https://evil.example/');
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    expect(contents.handler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('refuses every permission and sends the strict CSP header', () => {
    const ses = electron.session.defaultSession;
    hardenSession(ses as never, false);
    const request = ses.setPermissionRequestHandler.mock.calls[0]![0] as (wc: unknown, p: string, cb: (ok: boolean) => void) => void;
    for (const permission of ['media', 'clipboard-read', 'notifications', 'geolocation', 'openExternal']) {
      const callback = vi.fn();
      request({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect((ses.setPermissionCheckHandler.mock.calls[0]![0] as () => boolean)()).toBe(false);
    expect((ses.setDevicePermissionHandler.mock.calls[0]![0] as () => boolean)()).toBe(false);
    const onHeaders = ses.webRequest.onHeadersReceived.mock.calls[0]![0] as (
      d: unknown,
      cb: (r: { responseHeaders: Record<string, string[]> }) => void,
    ) => void;
    const callback = vi.fn();
    onHeaders({ responseHeaders: { 'content-type': ['text/html'] } }, callback);
    const csp = callback.mock.calls[0]![0].responseHeaders['Content-Security-Policy'][0] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
  });
});

describe('IPC sender and payload checks', () => {
  const url = 'file:///app/out/app/renderer/index.html';
  const setup = () => {
    const copy = vi.fn();
    const dirty = vi.fn();
    const refused = vi.fn();
    const noop = () => undefined;
    registerIpc(electron.ipcMain as never, {
      expectedSender: () => ({ webContentsId: 5, url }),
      onRefused: refused,
      invoke: {
        [INVOKE.load]: noop,
        [INVOKE.save]: noop,
        [INVOKE.tokenInUse]: noop,
        [INVOKE.copyText]: copy,
        [INVOKE.pickFolder]: noop,
        [INVOKE.testConnection]: noop,
        [INVOKE.restartServer]: noop,
        [INVOKE.listActivity]: noop,
        [INVOKE.listProcesses]: noop,
        [INVOKE.killProcess]: noop,
      } as never,
      send: { [SEND.setDirty]: dirty },
    });
    return { copy, dirty, refused };
  };
  const event = (id: number, frameUrl: string, main = true) => ({ sender: { id }, senderFrame: { url: frameUrl, parent: main ? null : {} } });
  const invoke = (channel: string, ev: unknown, ...args: unknown[]) => electron.ipcMain.handlers.get(channel)!(ev, ...args);

  it('runs a handler for the settings window with validated arguments', async () => {
    const { copy } = setup();
    await invoke(INVOKE.copyText, event(5, `${url}#files`), 'http://127.0.0.1:3210/mcp');
    expect(copy).toHaveBeenCalledWith('http://127.0.0.1:3210/mcp');
  });

  it.each([
    ['another webContents', event(6, url)],
    ['a subframe', event(5, url, false)],
    ['a navigated page', event(5, 'https://evil.example/index.html')],
    ['a destroyed frame', { sender: { id: 5 }, senderFrame: null }],
    [
      'a frame that throws',
      {
        sender: { id: 5 },
        get senderFrame() {
          throw new Error('Render frame was disposed');
        },
      },
    ],
  ])('refuses %s, running nothing', async (_name, ev) => {
    const { copy, refused } = setup();
    await expect(invoke(INVOKE.copyText, ev, 'x')).rejects.toThrow(REFUSED_SENDER);
    expect(copy).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledWith(INVOKE.copyText, 'sender');
  });

  it('refuses a bad payload from the right sender', async () => {
    const { copy, refused } = setup();
    await expect(invoke(INVOKE.copyText, event(5, url), { text: 'x' })).rejects.toThrow(/Invalid payload/);
    await expect(invoke(INVOKE.copyText, event(5, url), 'a', 'b')).rejects.toThrow(/Invalid payload/);
    expect(copy).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledWith(INVOKE.copyText, 'payload');
  });

  it('checks fire-and-forget messages the same way', () => {
    const { dirty, refused } = setup();
    electron.ipcMain.emit(SEND.setDirty, event(9, url), true);
    electron.ipcMain.emit(SEND.setDirty, event(5, url), 'yes');
    expect(dirty).not.toHaveBeenCalled();
    expect(refused.mock.calls).toEqual([
      [SEND.setDirty, 'sender'],
      [SEND.setDirty, 'payload'],
    ]);
    electron.ipcMain.emit(SEND.setDirty, event(5, url), true);
    expect(dirty).toHaveBeenCalledWith(true);
  });
});

describe('the app: one instance', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-app-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const quitApp = async () => {
    const event = { preventDefault: vi.fn() };
    electron.app.emit('will-quit', event);
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
  };

  it('a second launch quits at once and does nothing else', async () => {
    electron.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    expect(
      await runApp({
        mainDir: '/app/out/app/main',
        env: { CHATGPT_MCP_CONFIG: path.join(dir, 'none.json'), XDG_CONFIG_HOME: path.join(dir, 'xdg') },
        log: silentLogger,
      }),
    ).toBeNull();
    expect(electron.app.quit).toHaveBeenCalled();
    expect(electron.ipcMain.handlers.size).toBe(0);
    expect(electron.Tray.instances).toHaveLength(0);
  });

  it('the first instance serves, and a second launch opens (then focuses) its settings', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ server: { port: 0 } }));
    const running = await runApp({
      mainDir: '/app/out/app/main',
      env: { CHATGPT_MCP_CONFIG: file, XDG_CONFIG_HOME: path.join(dir, 'xdg') },
      log: silentLogger,
    });
    try {
      expect(running!.lifecycle.status.state).toBe('running');
      expect(electron.Tray.instances).toHaveLength(1);
      expect(electron.ipcMain.handlers.size).toBe(Object.keys(INVOKE).length);
      expect(windows()).toHaveLength(0);
      electron.app.emit('second-instance');
      expect(windows()).toHaveLength(1);
      electron.app.emit('second-instance');
      expect(windows()).toHaveLength(1);
      expect(windows()[0]!.focus).toHaveBeenCalled();
      // Closing the window keeps the app (and its server) alive.
      expect(electron.app.listenerCount('window-all-closed')).toBe(1);
    } finally {
      await quitApp();
    }
    expect(running!.lifecycle.status.state).toBe('stopped');
  });

  it('writes no token at its first start: it serves the token file the headless CLI uses, and the window shows that one', async () => {
    const file = path.join(dir, 'config.json');
    const env = { CHATGPT_MCP_CONFIG: file, XDG_CONFIG_HOME: path.join(dir, 'xdg'), CHATGPT_MCP_PORT: '0' };
    const running = await runApp({ mainDir: '/app/out/app/main', env, log: silentLogger });
    try {
      expect(running!.lifecycle.status.state).toBe('running');
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).server.token).toBeUndefined();
      const tokenFile = path.join(dir, 'xdg', 'chatgpt-mcp', 'token');
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      electron.app.emit('second-instance');
      const win = windows()[0]!;
      const sender = { sender: { id: win.webContents.id }, senderFrame: { url: pathToFileURL('/app/out/app/renderer/index.html').href, parent: null } };
      const shown = (await electron.ipcMain.handlers.get(INVOKE.tokenInUse)!(sender)) as { token: string; source: string };
      expect(shown).toMatchObject({ token, source: 'file' });
      const status = running!.lifecycle.status as { url: string };
      const answer = (bearer: string) =>
        fetch(status.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        });
      expect((await answer(token)).status).not.toBe(401);
      expect((await answer('x'.repeat(43))).status).toBe(401);
    } finally {
      await quitApp();
    }
  });

  it('an invalid saved config opens the settings at the offending field', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ shell: { maxRuntimeMs: -1 } }));
    const running = await runApp({
      mainDir: '/app/out/app/main',
      env: { CHATGPT_MCP_CONFIG: file, XDG_CONFIG_HOME: path.join(dir, 'xdg') },
      log: silentLogger,
    });
    try {
      expect(running!.lifecycle.status).toMatchObject({ state: 'error', field: ['shell', 'maxRuntimeMs'] });
      expect(windows()).toHaveLength(1);
      const win = windows()[0]!;
      const load = electron.ipcMain.handlers.get(INVOKE.load)!;
      const snapshot = (await load({
        sender: { id: win.webContents.id },
        senderFrame: { url: pathToFileURL('/app/out/app/renderer/index.html').href, parent: null },
      })) as {
        navigate: unknown;
        issues: unknown[];
        configPath: string;
      };
      expect(snapshot.navigate).toEqual({ section: 'commands', field: ['shell', 'maxRuntimeMs'] });
      expect(snapshot.configPath).toBe(file);
      expect(snapshot.issues).toHaveLength(1);
    } finally {
      await quitApp();
    }
  });
});
