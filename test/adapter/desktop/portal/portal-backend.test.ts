/**
 * The portal backend against a stand-in of xdg-desktop-portal (fixtures/portal-stand-in.ts) on
 * a real private D-Bus session bus: the consent dialog on first use and never again once its
 * restore token is kept (a second start of the backend offers it), pointer and keys through
 * RemoteDesktop's Notify* calls relative to the right monitor's stream, any character typed as a
 * keysym, captures through the Screenshot portal (its file removed afterwards), and the owner's
 * "no" reported as such.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadPortalBackend } from '../../../../adapter/desktop/portal/portal-backend.js';
import { restoreTokenFile } from '../../../../adapter/desktop/portal/portal-session.js';
import { portalChoice } from '../../../../adapter/desktop/portal/portal-choice.js';
import { clickSteps } from '../../../../adapter/desktop/pointer-actions.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { missingDesktopPrereq, skipDesktop, startSessionBus, type SessionBus } from '../fixtures/xvfb.js';
import { startPortalStandIn, type PortalStandIn } from './fixtures/portal-stand-in.js';

const missing = missingDesktopPrereq({ accessibility: true });

describe.skipIf(skipDesktop(missing, 'portal backend tests'))('the portal backend (RemoteDesktop, ScreenCast, Screenshot)', () => {
  let bus: SessionBus;
  let portal: PortalStandIn;
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    bus = await startSessionBus();
    home = makeTempDir('chatgpt-mcp-portal-');
    fs.mkdirSync(path.join(home, 'Pictures'));
    portal = await startPortalStandIn(bus.address, path.join(home, 'Pictures'));
    env = { HOME: home, XDG_STATE_HOME: path.join(home, 'state'), WAYLAND_DISPLAY: 'wayland-0', DBUS_SESSION_BUS_ADDRESS: bus.address };
  });

  afterAll(async () => {
    portal?.close();
    await bus?.stop();
    if (home) removeDir(home);
  });

  test('first use asks the owner once and keeps the restore token; the pointer and keys go through Notify* calls', async () => {
    expect(portalChoice.info(env).granted).toMatch(/^not yet/);
    const backend = await loadPortalBackend(env);
    expect(portal.dialogs).toBe(0); // nothing is asked before the first call
    expect(await backend.screen.size()).toEqual({ width: 2304, height: 800 });
    expect(portal.dialogs).toBe(1);
    expect(portal.offeredTokens).toEqual([undefined]);
    const tokenFile = restoreTokenFile(env)!;
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toMatch(/^token-\d+$/);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(portalChoice.info(env).granted).toMatch(/^the owner allowed remote control .* \(remembered since \d{4}-\d\d-\d\d/);

    expect(await backend.pointer.moveTo({ x: 1500, y: 100 }, 'input.move')).toEqual({ x: 1500, y: 100 });
    await backend.pointer.play(clickSteps('right', 1), 'input.click');
    await backend.pointer.play([{ kind: 'wheel', axis: 'y', direction: 1, delayMs: 0 }], 'input.scroll');
    await backend.keyboard.tap(['ctrl', 'a'], 'input.key');
    expect(await backend.clipboard.paste('é✓', async () => undefined, { waitMs: 0, quietMs: 0 }, 'input.type')).toBe('unconfirmed');
    expect(portal.notified).toEqual([
      // the start makes the compositor's virtual devices: a motion by nothing, a lone Shift
      { member: 'NotifyPointerMotion', args: [0, 0] },
      { member: 'NotifyKeyboardKeysym', args: [0xffe1, 1] },
      { member: 'NotifyKeyboardKeysym', args: [0xffe1, 0] },
      // on the second monitor's stream, relative to its origin
      { member: 'NotifyPointerMotionAbsolute', args: [43, 220, 100] },
      { member: 'NotifyPointerButton', args: [0x111, 1] },
      { member: 'NotifyPointerButton', args: [0x111, 0] },
      { member: 'NotifyPointerAxisDiscrete', args: [0, 1] },
      { member: 'NotifyKeyboardKeysym', args: [0xffe3, 1] },
      { member: 'NotifyKeyboardKeysym', args: [0x61, 1] },
      { member: 'NotifyKeyboardKeysym', args: [0x61, 0] },
      { member: 'NotifyKeyboardKeysym', args: [0xffe3, 0] },
      { member: 'NotifyKeyboardKeysym', args: [0xe9, 1] },
      { member: 'NotifyKeyboardKeysym', args: [0xe9, 0] },
      { member: 'NotifyKeyboardKeysym', args: [0x1002713, 1] },
      { member: 'NotifyKeyboardKeysym', args: [0x1002713, 0] },
    ]);
  });

  test('a second start offers the kept token: no dialog', async () => {
    const kept = fs.readFileSync(restoreTokenFile(env)!, 'utf8').trim();
    const backend = await loadPortalBackend(env);
    await backend.pointer.moveTo({ x: 10, y: 20 }, 'input.move');
    expect(portal.offeredTokens.at(-1)).toBe(kept);
    expect(portal.dialogs).toBe(1);
    expect(portal.notified.at(-1)).toEqual({ member: 'NotifyPointerMotionAbsolute', args: [42, 10, 20] });
  });

  test('screen captures come from the Screenshot portal, cut to the area, and its file is removed', async () => {
    const backend = await loadPortalBackend(env);
    const frame = await backend.screen.grab({ x: 100, y: 50, width: 30, height: 20 });
    expect([frame.width, frame.height, frame.byteWidth, frame.rgb]).toEqual([30, 20, 90, true]);
    expect([...frame.data.subarray(0, 3)]).toEqual([10, 120, 200]);
    expect(portal.screenshotsTaken).toHaveLength(1);
    expect(fs.existsSync(portal.screenshotsTaken[0]!)).toBe(false);
  });

  test("the owner's no in the dialog is refused as not granted, and asked again on the next call", async () => {
    fs.rmSync(restoreTokenFile(env)!);
    portal.answer = 'deny';
    const backend = await loadPortalBackend(env);
    await expect(backend.pointer.moveTo({ x: 1, y: 1 }, 'input.move')).rejects.toMatchObject({
      code: 'CAPABILITY_DISABLED',
      message: expect.stringMatching(/owner declined the portal's Start request .* the next call asks again/),
    });
    const dialogs = portal.dialogs;
    portal.answer = 'allow';
    await backend.pointer.moveTo({ x: 1, y: 1 }, 'input.move');
    expect(portal.dialogs).toBe(dialogs + 1);
  });
});
