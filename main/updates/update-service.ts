/**
 * The tray app's updates, with electron-updater (from the releases the release workflow
 * publishes): looked for at start and once a day unless updates.check is off (then nothing is
 * fetched at all), downloaded in the background, installed when the app quits. Each download is
 * checked against the sha512 the release metadata names; Windows and macOS also check the
 * platform signature (electron-updater's NsisUpdater, Squirrel.Mac). Electron-free: the updater
 * comes from the shell (main/tray/app-updates.ts) or, in tests, is built on a stand-in app.
 */
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import type { Logger } from '../log.js';

export type UpdateStatus =
  | { state: 'off'; reason: string }
  | { state: 'idle'; checkedAt: string | null }
  | { state: 'checking' }
  | { state: 'downloading'; version: string; percent: number }
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;

export type Updater = Pick<AppUpdater, 'autoDownload' | 'autoInstallOnAppQuit' | 'checkForUpdates' | 'isUpdaterActive' | 'quitAndInstall' | 'on'>;

export class UpdateService {
  private status_: UpdateStatus;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(status: UpdateStatus) => void>();

  /** `updater` null: this build cannot update itself (`why` says so). */
  constructor(
    private readonly updater: Updater | null,
    enabled: boolean,
    private readonly log: Logger,
    why = 'this build does not update itself',
  ) {
    this.status_ = !enabled ? { state: 'off', reason: 'updates.check is off' } : updater ? { state: 'idle', checkedAt: null } : { state: 'off', reason: why };
    if (!updater || !enabled) return;
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('checking-for-update', () => this.set({ state: 'checking' }));
    updater.on('update-not-available', () => this.set({ state: 'idle', checkedAt: new Date().toISOString() }));
    updater.on('update-available', (info: UpdateInfo) => this.set({ state: 'downloading', version: info.version, percent: 0 }));
    updater.on('download-progress', (progress: ProgressInfo) => {
      if (this.status_.state === 'downloading') this.set({ ...this.status_, percent: Math.floor(progress.percent) });
    });
    updater.on('update-downloaded', (info: UpdateInfo) => {
      this.log.info('update downloaded: it installs when the app quits', { version: info.version });
      this.set({ state: 'ready', version: info.version });
    });
    updater.on('error', (error: Error) => {
      const message = error.message.split('\n')[0] ?? 'unknown error';
      this.log.warn('update failed', { reason: message });
      this.set({ state: 'error', message });
    });
  }

  get status(): UpdateStatus {
    return this.status_;
  }

  onChange(listener: (status: UpdateStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Looks now, then once a day while the app runs. */
  start(): void {
    if (this.status_.state === 'off' || this.timer) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look (and, when there is a newer release, its download); failures end up in the status. */
  async check(): Promise<UpdateStatus> {
    const updater = this.updater;
    if (!updater || this.status_.state === 'off' || this.status_.state === 'ready') return this.status_;
    if (!updater.isUpdaterActive()) {
      this.set({ state: 'off', reason: 'this copy was not installed from a release (an AppImage, the Windows installer or the macOS app)' });
      return this.status_;
    }
    try {
      const result = await updater.checkForUpdates();
      await result?.downloadPromise;
    } catch {
      // the 'error' event has said why
    }
    return this.status_;
  }

  /** "Restart now to update": quits and installs the downloaded release. */
  installNow(): boolean {
    if (this.status_.state !== 'ready' || !this.updater) return false;
    this.updater.quitAndInstall(false, true);
    return true;
  }

  private set(status: UpdateStatus): void {
    this.status_ = status;
    for (const listener of this.listeners) listener(status);
  }
}
