/** The caller-environment allow-list: built-in harmless names, the owner's names, nothing else. */
import { describe, expect, it } from 'vitest';
import { EnvironmentPolicy } from '../../main/policy/environment.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { localPort } from '../helpers/adapter.js';
import { CODE_RUNNING_NAMES } from '../helpers/env-attacks.js';
import { makeConfig } from '../helpers/servers.js';

const SECRET = 'server-env-secret-0123456789';
const serverEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/owner',
  LANG: 'en_US.UTF-8',
  DISPLAY: ':0',
  XDG_RUNTIME_DIR: '/run/user/1000',
  CHATGPT_MCP_TOKEN: SECRET,
  OPENAI_API_KEY: SECRET,
  NODE_OPTIONS: '--require /tmp/evil.js',
};

function environment(shell: ConfigInput['shell'] = {}, desktop: ConfigInput['desktop'] = {}, platform: NodeJS.Platform = 'linux') {
  const config = makeConfig({ shell: { enabled: true, allowedCommands: ['env'], allowEnv: true, ...shell }, desktop });
  return new EnvironmentPolicy(config, localPort(serverEnv, platform));
}

describe('what a child gets', () => {
  it('the short base environment: no token, no API key, no NODE_OPTIONS from the server', () => {
    const env = environment().child();
    expect(env).toMatchObject({ PATH: '/usr/bin:/bin', HOME: '/home/owner', LANG: 'en_US.UTF-8' });
    expect(JSON.stringify(env)).not.toContain(SECRET);
    expect(env.NODE_OPTIONS).toBeUndefined();
  });

  it('without display access, no graphical session; with it, the session stays', () => {
    expect(environment().child()).not.toHaveProperty('DISPLAY');
    expect(environment().child()).not.toHaveProperty('XDG_RUNTIME_DIR');
    expect(environment({}, { hostDisplayAccess: true }).child()).toMatchObject({ DISPLAY: ':0' });
  });
});

describe('the allow-list', () => {
  it.each([
    ['LANG', 'de_DE.UTF-8'],
    ['LC_ALL', 'C.UTF-8'],
    ['LC_MESSAGES', 'C'],
    ['LANGUAGE', 'de:en'],
    ['TZ', 'Europe/Paris'],
    ['TZ', 'UTC'],
    ['TERM', 'xterm-256color'],
    ['COLORTERM', 'truecolor'],
    ['NO_COLOR', '1'],
    ['FORCE_COLOR', '0'],
    ['COLUMNS', '120'],
    ['LINES', '40'],
    ['SOURCE_DATE_EPOCH', '1700000000'],
    ['PYTHONUNBUFFERED', '1'],
    ['PYTHONIOENCODING', 'utf-8'],
  ])('accepts the built-in %s=%s', (name, value) => {
    expect(environment().child({ [name]: value })[name]).toBe(value);
  });

  it.each([
    ['LANG', '/tmp/evil-locale'],
    ['LC_ALL', '../../x'],
    ['TZ', '/tmp/zoneinfo'],
    ['TZ', ':/etc/../tmp/x'],
    ['TZ', 'Europe/../../tmp/x'],
    ['TERM', '../../tmp/terminfo'],
    ['COLUMNS', 'wide'],
    ['NO_COLOR', '$(id)'],
  ])('refuses the built-in %s with a path-like or odd value %j', (name, value) => {
    expect(() => environment().child({ [name]: value })).toThrow(new RegExp(`env ${name} must be`));
  });

  it.each(CODE_RUNNING_NAMES)('refuses %s, listing what is allowed', (name) => {
    let error: unknown;
    try {
      environment({ allowedEnv: ['MY_APP_MODE'] }).child({ [name]: 'sh -c "touch /tmp/pwned"' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
    expect((error as Error).message).toMatch(/Allowed names: LANG, LANGUAGE, LC_\*, TZ, TERM, .*added by the owner \(shell\.allowedEnv\): MY_APP_MODE/);
  });

  it('takes a name the owner listed, with any value, exactly as spelled (case-insensitively on Windows)', () => {
    expect(environment({ allowedEnv: ['MY_APP_MODE'] }).child({ MY_APP_MODE: 'fast lane' })).toMatchObject({ MY_APP_MODE: 'fast lane' });
    expect(() => environment({ allowedEnv: ['MY_APP_MODE'] }).child({ my_app_mode: 'x' })).toThrow(/not on the allow-list/);
    expect(environment({ allowedEnv: ['MY_APP_MODE'] }, {}, 'win32').child({ my_app_mode: 'x' })).toMatchObject({ my_app_mode: 'x' });
  });

  it('replaces any spelling of a Windows name instead of adding a second one', () => {
    const env = environment({ allowPathEnv: true }, {}, 'win32').child({ Path: 'C:\\tools' });
    expect(Object.keys(env).filter((k) => k.toUpperCase() === 'PATH')).toEqual(['Path']);
  });

  it('PATH needs shell.allowPathEnv; display variables need display access', () => {
    expect(() => environment().child({ PATH: '/tmp' })).toThrow(/shell\.allowPathEnv is false/);
    expect(environment({ allowPathEnv: true }).child({ PATH: '/tmp' }).PATH).toBe('/tmp');
    expect(() => environment({ allowedEnv: ['DISPLAY'] }).child({ DISPLAY: ':0' })).toThrow(/hostDisplayAccess is false/);
  });

  it('refuses bad names and NUL bytes, and everything without shell.allowEnv', () => {
    expect(() => environment().child({ 'A=B': 'x' })).toThrow(/not a plain variable name/);
    expect(() => environment().child({ LANG: 'C\0x' })).toThrow(/NUL/);
    expect(() => environment({ allowEnv: false }).child({ LANG: 'C' })).toThrow(/shell\.allowEnv is false/);
  });

  it('describes what is allowed for system.info and denials', () => {
    expect(environment({ allowedEnv: ['A_B'], allowPathEnv: true }).describeAllowed()).toMatch(
      /^LANG, .*PYTHONIOENCODING, PATH; added by the owner \(shell\.allowedEnv\): A_B$/,
    );
    expect(environment({ allowEnv: false }).describeAllowed()).toBe('none (shell.allowEnv is false)');
  });
});
