import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/log.js';
import { appUpdates } from '../../main/tray/app-updates.js';

// The installed app's path (electron-updater's autoUpdater) needs the Electron binary: the workflow's smoke test runs it.
describe("the shell's updater", () => {
  it('is off with updates.check off, loading nothing', async () => {
    expect((await appUpdates({ isPackaged: true }, false, silentLogger)).status).toEqual({ state: 'off', reason: 'updates.check is off' });
  });

  it('is off in a development run, and says why', async () => {
    const updates = await appUpdates({ isPackaged: false }, true, silentLogger);
    expect(updates.status).toEqual({ state: 'off', reason: 'a development run does not update itself' });
    expect(await updates.check()).toEqual(updates.status);
  });
});
