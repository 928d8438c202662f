import { describe, expect, it } from 'vitest';
import { bundleSettings, parseBundleArgs } from '../../main/cli/mcpb-serve.js';
import { validateConfig } from '../../main/config/save.js';

describe("the bundle server's arguments", () => {
  it('reads the switches, the command list and the folders after --', () => {
    const choices = parseBundleArgs([
      '--writable=true',
      '--commands=git, npm,,python3',
      '--screen=false',
      '--input=TRUE',
      '--app-settings=',
      '--',
      '/a',
      '/b c',
    ]);
    expect(choices).toEqual({ roots: ['/a', '/b c'], commands: ['git', 'npm', 'python3'], writable: true, screen: false, input: true, appSettings: false });
  });

  it('an empty choice is off, and no folders is no roots', () => {
    expect(parseBundleArgs(['--writable=', '--commands=', '--'])).toEqual({
      roots: [],
      commands: [],
      writable: false,
      screen: false,
      input: false,
      appSettings: false,
    });
  });

  it.each([
    [['--writable=yes'], '--writable is true or false, not "yes"'],
    [['--commands=${user_config.commands}'], 'the host passed "${user_config.commands}" unfilled'],
    [['--', '${user_config.folders}'], 'the host passed "${user_config.folders}" unfilled'],
    [['--root=/a'], "Unknown option '--root'"],
  ])('%j is refused: %s', (argv, message) => {
    const parsed = parseBundleArgs(argv);
    expect('error' in parsed && parsed.error).toContain(message);
  });

  it('grants exactly what was chosen, as a valid config', () => {
    const settings = bundleSettings({ roots: ['/srv/a'], commands: ['git'], writable: false, screen: true, input: false, appSettings: false });
    expect(settings).toEqual({
      filesystem: { roots: ['/srv/a'], write: false },
      shell: { enabled: true, allowedCommands: ['git'] },
      desktop: { hostDisplayAccess: true, screen: true, input: false },
    });
    expect(validateConfig(settings).ok).toBe(true);
    const none = bundleSettings({ roots: [], commands: [], writable: false, screen: false, input: false, appSettings: false });
    expect(none).toMatchObject({ shell: { enabled: false }, desktop: { hostDisplayAccess: false } });
  });
});
