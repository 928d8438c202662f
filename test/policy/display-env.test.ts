/** The graphical-session variables kept from children while display access is off. */
import { describe, expect, test } from 'vitest';
import { DISPLAY_ENV_KEYS, displayEnvKeysIn, scrubDisplayEnv } from '../../main/policy/display-env.js';

describe('display environment', () => {
  test('the Linux graphical-session keys are all covered', () => {
    for (const key of ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'MIR_SOCKET', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'WAYLAND_SOCKET', 'SWAYSOCK']) {
      expect(DISPLAY_ENV_KEYS).toContain(key);
    }
  });

  test('scrubDisplayEnv removes them (any case) and keeps everything else, without touching its input', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/u',
      DISPLAY: ':0',
      XAUTHORITY: '/home/u/.Xauthority',
      WAYLAND_DISPLAY: 'wayland-0',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      XDG_RUNTIME_DIR: '/run/user/1000',
      display: ':1',
      LANG: 'C',
      XDG_SESSION_TYPE: 'x11',
    };
    const scrubbed = scrubDisplayEnv(env);
    expect(scrubbed).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C', XDG_SESSION_TYPE: 'x11' });
    expect(env.DISPLAY).toBe(':0');
  });

  test('displayEnvKeysIn names the caller keys to reject', () => {
    expect(displayEnvKeysIn({ FOO: '1', DISPLAY: ':0', Xauthority: '/x' })).toEqual(['DISPLAY', 'Xauthority']);
    expect(displayEnvKeysIn({ FOO: '1' })).toEqual([]);
    expect(displayEnvKeysIn(undefined)).toEqual([]);
  });
});
