/** Which backend serves a session, decided from the environment alone, and why none can. */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir, removeDir } from '../../helpers/temp.js';
import { chooseBackend, sessionProblem } from '../../../adapter/desktop/load-desktop-backend.js';
import { nutChoice } from '../../../adapter/desktop/nut/nut-choice.js';
import { portalChoice } from '../../../adapter/desktop/portal/portal-choice.js';
import { wlrootsChoice } from '../../../adapter/desktop/wlroots/wlroots-choice.js';
import { x11Choice } from '../../../adapter/desktop/x11/x11-choice.js';

describe('sessionProblem', () => {
  test.each([
    ['linux', {}, /^no graphical display: set DISPLAY/],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, /only a Wayland display is set \(WAYLAND_DISPLAY\), without the session bus/],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' }, undefined],
    ['freebsd', {}, /no graphical display/],
    ['linux', { DISPLAY: ':0' }, undefined],
    ['darwin', {}, undefined],
    ['win32', {}, undefined],
  ] as const)('%s %j', (platform, env, expected) => {
    const result = sessionProblem(platform, env);
    if (expected) expect(result).toMatch(expected);
    else expect(result).toBeUndefined();
  });
});

describe('chooseBackend', () => {
  test.each([
    ['linux', { DISPLAY: ':0' }, x11Choice],
    ['linux', { DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0' }, x11Choice],
    // a Wayland desktop with its session bus: the portal, before XWayland's X11
    ['linux', { DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' }, portalChoice],
    ['linux', { WAYLAND_DISPLAY: 'wayland-1', XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/b' }, wlrootsChoice],
    ['linux', { WAYLAND_DISPLAY: 'wayland-1', SWAYSOCK: '/run/user/1000/sway-ipc.sock' }, wlrootsChoice],
    ['linux', { DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-1', XDG_CURRENT_DESKTOP: 'Hyprland' }, wlrootsChoice],
    ['freebsd', { DISPLAY: 'localhost:10.0' }, x11Choice],
    ['darwin', { DISPLAY: ':0' }, nutChoice],
    ['win32', {}, nutChoice],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, undefined],
    ['linux', {}, undefined],
  ] as const)('%s %j', (platform, env, expected) => {
    expect(chooseBackend(platform, env)).toBe(expected);
  });

  test('each backend names itself and what it cannot do; the portal says what the owner granted', () => {
    expect(x11Choice.info({ DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0' }).limits.join(' ')).toMatch(/XWayland.*native Wayland windows/);
    expect(wlrootsChoice.info({}).name).toBe('wayland-wlroots');
    expect(portalChoice.info({ HOME: '/nonexistent' })).toMatchObject({
      name: 'wayland-portal',
      granted: expect.stringMatching(/^not yet: the first screen or input call/),
    });
  });

  test('the portal refuses a session bus socket another user could have swapped in', async () => {
    const dir = makeTempDir('chatgpt-mcp-bus-');
    fs.chmodSync(dir, 0o777); // anyone may write here, and it is not sticky
    const server = net.createServer().listen(path.join(dir, 'bus'));
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      expect(portalChoice.problem!({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${dir}/bus,guid=1` })).toMatch(
        /^refusing the session bus .* could let another user replace the socket/,
      );
      expect(portalChoice.problem!({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })).toBeUndefined();
      expect(portalChoice.problem!({ DBUS_SESSION_BUS_ADDRESS: 'unix:abstract=/tmp/dbus-x' })).toBeUndefined();
    } finally {
      server.close();
      removeDir(dir);
    }
  });

  test('only the X11 backend offers a pointer in the server process', () => {
    expect(x11Choice.inProcessPointer).toBeTypeOf('function');
    expect(nutChoice.inProcessPointer).toBeUndefined();
  });
});
