/**
 * The one settings window: created on demand, focused when it exists, and never closed over
 * unsaved edits without asking. It remembers which page it loaded so IPC can check senders.
 */
import { BrowserWindow, dialog, nativeTheme, type OpenDialogOptions } from 'electron';
import { pathToFileURL } from 'node:url';
import type { NavigateRequest } from './bridge-api.js';
import { PUSH, type PushChannel } from './ipc-channels.js';
import { secureWebPreferences } from './security.js';
import type { ExpectedSender } from './sender-check.js';
import { APP_TITLE } from './tray-state.js';

export interface SettingsWindowOptions {
  preload: string;
  /** The built index.html (production) ... */
  indexFile: string;
  /** ... or the dev server URL (electron-vite dev). */
  devUrl?: string | undefined;
  devTools: boolean;
  icon?: string | undefined;
}

export const DISCARD_PROMPT = {
  type: 'warning' as const,
  buttons: ['Discard changes', 'Keep editing'],
  defaultId: 1,
  cancelId: 1,
  title: 'Unsaved changes',
  message: 'Discard your unsaved changes?',
  detail: 'The settings you changed have not been saved. Closing the window discards them.',
};

export class SettingsWindow {
  private window: BrowserWindow | null = null;
  private dirty = false;
  private loadedUrl: string | null = null;
  private pending: NavigateRequest | null = null;

  constructor(private readonly options: SettingsWindowOptions) {}

  get isOpen(): boolean {
    return this.window !== null && !this.window.isDestroyed();
  }

  /** The window, for parenting native dialogs; null when closed. */
  get browserWindow(): BrowserWindow | null {
    return this.isOpen ? this.window : null;
  }

  /** One path from the native dialog, over this window when it is open; null when cancelled. */
  async pickPath(options: OpenDialogOptions): Promise<string | null> {
    const parent = this.browserWindow;
    const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }

  /** Who may send IPC: this window's webContents on the page it loaded. */
  expectedSender(): ExpectedSender | null {
    if (!this.isOpen || !this.loadedUrl) return null;
    return { webContentsId: this.window!.webContents.id, url: this.loadedUrl };
  }

  setDirty(dirty: boolean): void {
    this.dirty = dirty;
    if (this.isOpen) this.window!.setDocumentEdited(dirty);
  }

  open(navigate?: NavigateRequest): void {
    if (this.isOpen) {
      const win = this.window!;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      if (navigate) this.send(PUSH.navigate, navigate);
      return;
    }
    this.pending = navigate ?? null;
    this.create();
  }

  /** Where a freshly opened window should start (it asks once, when it loads its settings). */
  takeNavigation(): NavigateRequest | null {
    const pending = this.pending;
    this.pending = null;
    return pending;
  }

  send(channel: PushChannel, payload: unknown): void {
    if (!this.isOpen) return;
    const contents = this.window!.webContents;
    if (!contents.isLoading()) contents.send(channel, payload);
  }

  private create(): void {
    const { preload, indexFile, devUrl, devTools, icon } = this.options;
    const win = new BrowserWindow({
      title: `${APP_TITLE} Settings`,
      width: 980,
      height: 700,
      minWidth: 780,
      minHeight: 540,
      show: false,
      autoHideMenuBar: true,
      backgroundColor: nativeTheme.shouldUseDarkColors ? '#17181b' : '#f6f7f9',
      ...(icon ? { icon } : {}),
      webPreferences: secureWebPreferences(preload, devTools),
    });
    this.window = win;
    this.dirty = false;
    win.removeMenu();

    win.on('close', (event) => {
      if (!this.dirty) return;
      const choice = dialog.showMessageBoxSync(win, DISCARD_PROMPT);
      if (choice !== 0) event.preventDefault();
      else this.dirty = false;
    });
    win.on('closed', () => {
      this.window = null;
      this.loadedUrl = null;
      this.dirty = false;
    });
    win.once('ready-to-show', () => win.show());

    if (devUrl) {
      this.loadedUrl = devUrl;
      void win.loadURL(devUrl);
    } else {
      this.loadedUrl = pathToFileURL(indexFile).href;
      void win.loadFile(indexFile);
    }
  }
}
