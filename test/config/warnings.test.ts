import { describe, expect, it } from 'vitest';
import { isCodeRunner } from '../../main/config/code-runners.js';
import { configSchema, type ConfigInput } from '../../main/config/schema.js';
import { configWarnings } from '../../main/config/warnings.js';
import { commandsWarning } from '../../renderer/src/dangers.js';
import { toDraft } from '../../renderer/src/draft.js';

const kind = (path: string) => (path.endsWith('missing') ? ('missing' as const) : path.endsWith('.txt') ? ('other' as const) : ('directory' as const));
const warn = (input: ConfigInput, platform = 'linux') => configWarnings(configSchema.parse(input), { kind, platform });

describe('configWarnings', () => {
  it('is quiet for a config that works', () => {
    expect(
      warn({ filesystem: { write: true, roots: ['/p'] }, shell: { enabled: true, allowedCommands: ['ls'] }, process: { list: true, kill: true } }),
    ).toEqual([]);
  });

  it.each<[string, ConfigInput, RegExp]>([
    ['a missing root', { filesystem: { roots: ['/x/missing'] } }, /filesystem\.roots\[0\]: \/x\/missing does not exist/],
    [
      'a root inside a secret folder',
      { filesystem: { roots: ['/home/a/.ssh/projects'] } },
      /\.ssh\/projects itself matches the pattern "\.ssh\/" \(filesystem\.protectSecrets\)/,
    ],
    [
      'a root a deny pattern names',
      { filesystem: { roots: ['/srv/build/app'], deny: ['build/**'] } },
      /itself matches the pattern "build\/\*\*" \(filesystem\.deny\)/,
    ],
    ['a root that is a file', { filesystem: { roots: ['/x/a.txt'] } }, /is not a directory/],
    ['write with only read-only roots', { filesystem: { write: true, roots: [{ path: '/p', readOnly: true }] } }, /every root is read-only/],
    ['commands with the shell off', { shell: { allowedCommands: ['ls'] } }, /shell\.enabled is false/],
    ['the shell on with no command', { shell: { enabled: true } }, /allowedCommands is empty/],
    ['any program', { shell: { enabled: true, allowedCommands: ['*'] } }, /shell\.allowedCommands is \["\*"\]: Any program on this computer can be run/],
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

describe('the "*" warning says what the sandbox in effect allows, as the settings window does', () => {
  const star = (shell: ConfigInput['shell'], platform: string) =>
    warn({ shell: { enabled: true, allowedCommands: ['*'], ...shell } }, platform).find((w) => w.startsWith('shell.allowedCommands is ["*"]'));

  it.each<[string, ConfigInput['shell'], string, RegExp]>([
    ['sandbox off', { sandbox: 'off' }, 'linux', /with your account's rights: anything your account can reach\.$/],
    ['"auto" on macOS (no sandbox by default)', {}, 'darwin', /with your account's rights: anything your account can reach\.$/],
    [
      '"auto" on Linux (private-home)',
      {},
      'linux',
      /within the sandbox: it can write only in writable shared folders and a private temp folder, and read the rest of the system except your home folder outside the shared and toolchain folders and this app's folders\.$/,
    ],
    [
      'workspace',
      { sandbox: 'workspace' },
      'linux',
      /within the sandbox: it can write only in writable shared folders and a private temp folder, and read the rest of the system except secret folders in your home and this app's folders\.$/,
    ],
    ['read-only', { sandbox: 'read-only' }, 'linux', /within the sandbox: it can write only in a private temp folder, and read/],
  ])('%s', (_label, shell, platform, message) => {
    const warning = star(shell, platform);
    expect(warning).toMatch(message);
    if (!/sandbox:/.test(String(warning))) expect(warning).not.toMatch(/sandbox/);
    else expect(warning).not.toMatch(/account's rights/);
    // Word for word what the window shows next to the list for the same config.
    const draft = toDraft({ shell: { enabled: true, allowedCommands: ['*'], ...shell } });
    expect(warning).toBe(`shell.allowedCommands is ["*"]: ${commandsWarning(draft, platform)}`);
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

describe('a gateway entry holding a secret in plain text, judged by its shape as a paste is', () => {
  const entry = (env: Record<string, string>, args: string[] = []) => warn({ gateway: { servers: [{ name: 'db', command: 'db-mcp', args, env }] } });

  it.each<[string, Record<string, string>, string[], string]>([
    ['a password in a connection string', { DATABASE_URL: 'postgres://app:hunter2@localhost/db' }, [], 'env DATABASE_URL'],
    ['Bearer inside a JSON header', { EXTRA: '{"Authorization": "Bearer abcdefghijklmnop1234"}' }, [], 'env EXTRA'],
    ['a PEM key', { CERT_MATERIAL: '-----BEGIN RSA PRIVATE KEY-----\nMIIE...' }, [], 'env CERT_MATERIAL'],
    ['a webhook URL', { NOTIFY: 'https://hooks.slack.com/services/T000/B000/XXXX' }, [], 'env NOTIFY'],
    ['a connection string argument', {}, ['--dsn', 'postgres://app:hunter2@localhost/db'], 'args[1]'],
    ['the value after --api-key', {}, ['--api-key', 'abc123def456'], 'args[1]'],
  ])('warns about %s, naming where it is and how to store it, never the value', (_label, env, args, where) => {
    const warnings = entry(env, args).filter((w) => w.startsWith('gateway.servers "db"'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`"db": ${where} holds what looks like a secret`);
    expect(warnings[0]).toMatch(/chatgpt-mcp gateway set-secret db\/\w+/);
    for (const value of [...Object.values(env), ...args.slice(1)]) expect(warnings[0]).not.toContain(value);
  });

  it('is quiet for settings, a connection string without a password, placeholders and what a paste left out', () => {
    const warnings = entry({ DATABASE_URL: 'postgres://localhost/db', MAX_TOKENS: '4096', LOG_LEVEL: 'debug' }, [
      '--port',
      '${PORT:-8080}',
      '--api-key=SECRET-NOT-COPIED',
      '--token',
      'SECRET-NOT-COPIED',
      'postgres://app:SECRET-NOT-COPIED@h/db',
    ]);
    expect(warnings.filter((w) => w.startsWith('gateway.servers'))).toEqual([]);
  });
});

describe('a local repository on git.push that git cannot write in the command sandbox', () => {
  const pushes = (input: ConfigInput, platform = 'linux') => warn(input, platform).filter((w) => w.startsWith('git.push'));

  it('is warned about where commands are sandboxed and it lies outside the writable roots', () => {
    const config: ConfigInput = {
      filesystem: { write: true, roots: ['/p', { path: '/ro', readOnly: true }] },
      git: { push: ['/srv/up.git', '/ro/b.git', '/p/c.git', 'me/app'] },
    };
    expect(pushes(config)).toEqual([
      expect.stringMatching(/^git\.push lists \/srv\/up\.git, a local repository outside the writable roots: .* make its folder a writable root/),
      expect.stringMatching(/^git\.push lists \/ro\/b\.git/),
    ]);
  });

  it('is not, with the sandbox off (the macOS default too)', () => {
    expect(pushes({ git: { push: ['/srv/up.git'] }, shell: { sandbox: 'off' } })).toEqual([]);
    expect(pushes({ git: { push: ['/srv/up.git'] } }, 'darwin')).toEqual([]);
  });
});
