import { describe, expect, it } from 'vitest';
import { isCodeRunner } from '../../main/config/code-runners.js';
import { configSchema, type ConfigInput } from '../../main/config/schema.js';
import { configWarnings } from '../../main/config/warnings.js';

const disk = {
  kind: (path: string) => (path.endsWith('missing') ? ('missing' as const) : path.endsWith('.txt') ? ('other' as const) : ('directory' as const)),
};
const warn = (input: ConfigInput) => configWarnings(configSchema.parse(input), disk);

describe('configWarnings', () => {
  it('is quiet for a config that works', () => {
    expect(
      warn({ filesystem: { write: true, roots: ['/p'] }, shell: { enabled: true, allowedCommands: ['ls'] }, process: { list: true, kill: true } }),
    ).toEqual([]);
  });

  it.each<[string, ConfigInput, RegExp]>([
    ['a missing root', { filesystem: { roots: ['/x/missing'] } }, /filesystem\.roots\[0\]: \/x\/missing does not exist/],
    ['a root that is a file', { filesystem: { roots: ['/x/a.txt'] } }, /is not a directory/],
    ['write with only read-only roots', { filesystem: { write: true, roots: [{ path: '/p', readOnly: true }] } }, /every root is read-only/],
    ['commands with the shell off', { shell: { allowedCommands: ['ls'] } }, /shell\.enabled is false/],
    ['the shell on with no command', { shell: { enabled: true } }, /allowedCommands is empty/],
    ['any program', { shell: { enabled: true, allowedCommands: ['*'] } }, /any program/],
    [
      'code runners',
      { shell: { enabled: true, allowedCommands: ['ls', 'git', '/usr/bin/python3', 'sort'] } },
      /git, \/usr\/bin\/python3, sort can run any code/,
    ],
    ['a family without the master switch', { desktop: { screen: true, input: true } }, /desktop\.screen, desktop\.input are on, but the master switch/],
    ['app control with no app', { desktop: { hostDisplayAccess: true, appControl: true } }, /lists no application/],
    ['service control with no service', { services: { control: true } }, /lists no service/],
  ])('warns about %s', (_label, input, message) => {
    expect(warn(input).join('\n')).toMatch(message);
  });
});

describe('isCodeRunner', () => {
  it.each(['git', 'bash', '/usr/bin/env', 'python3', 'sed', 'sort', 'find', 'xdg-open', 'C:\\Windows\\System32\\cmd.exe', 'PowerShell.exe', 'npm'])(
    '%s runs code',
    (entry) => {
      expect(isCodeRunner(entry)).toBe(true);
    },
  );
  it.each(['ls', 'cat', 'grep', 'wc', 'date', '/usr/bin/head'])('%s does not', (entry) => {
    expect(isCodeRunner(entry)).toBe(false);
  });
});
