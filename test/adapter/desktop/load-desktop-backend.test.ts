/** Which backend serves a session, decided from the environment alone, and why none can. */
import { describe, expect, test } from 'vitest';
import { chooseBackend, sessionProblem } from '../../../adapter/desktop/load-desktop-backend.js';
import { nutChoice } from '../../../adapter/desktop/nut/nut-choice.js';
import { x11Choice } from '../../../adapter/desktop/x11/x11-choice.js';

describe('sessionProblem', () => {
  test.each([
    ['linux', {}, /^no graphical display: set DISPLAY/],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, /only a Wayland display is set.*XWayland/],
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
    ['freebsd', { DISPLAY: 'localhost:10.0' }, x11Choice],
    ['darwin', { DISPLAY: ':0' }, nutChoice],
    ['win32', {}, nutChoice],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, undefined],
    ['linux', {}, undefined],
  ] as const)('%s %j', (platform, env, expected) => {
    expect(chooseBackend(platform, env)).toBe(expected);
  });

  test('only the X11 backend offers a pointer in the server process', () => {
    expect(x11Choice.inProcessPointer).toBeTypeOf('function');
    expect(nutChoice.inProcessPointer).toBeUndefined();
  });
});
