/**
 * The shell's side of the app's updates: electron-updater's autoUpdater (the updater for this
 * OS, downloading through Electron's network stack and its proxy settings) for an installed app;
 * none for a development run or with updates.check off, so nothing is loaded or fetched then.
 */
import type { App } from 'electron';
import type { Logger } from '../log.js';
import { UpdateService } from '../updates/update-service.js';

export async function appUpdates(app: Pick<App, 'isPackaged'>, enabled: boolean, log: Logger): Promise<UpdateService> {
  if (!enabled) return new UpdateService(null, false, log);
  if (!app.isPackaged) return new UpdateService(null, true, log, 'a development run does not update itself');
  const { default: electronUpdater } = await import('electron-updater');
  const updater = electronUpdater.autoUpdater;
  // Its own log is verbose and names local paths; the service logs what the owner needs.
  updater.logger = null;
  return new UpdateService(updater, true, log);
}
