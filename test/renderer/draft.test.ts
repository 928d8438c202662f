/** The settings window's pure logic: draft <-> file mapping, validation by field, dangerous grants. */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { commandsWarning, displayWarning, hostWarning, isLoopbackHost, rootWarning, WARNINGS } from '../../renderer/src/dangers.js';
import {
  changedSections,
  defaultDraft,
  fieldKey,
  issuesToErrors,
  sameSettings,
  toConfig,
  toDraft,
  unknownKeys,
  validateDraft,
} from '../../renderer/src/draft.js';
import { formatBytes, formatDuration } from '../../renderer/src/format.js';

describe('draft <-> config file', () => {
  it('an empty file becomes the schema defaults, and saves back as exactly those', () => {
    const draft = defaultDraft();
    expect(configSchema.parse(toConfig(draft))).toEqual(configSchema.parse({}));
    expect(validateDraft(draft).size).toBe(0);
  });

  it('round-trips a full config, normalizing roots and apps', () => {
    const file = {
      $schema: 'https://example.com/schema.json',
      server: { port: 4000, token: 'x'.repeat(20), toolNames: 'underscore' },
      filesystem: { write: true, roots: ['/home/u/a', { path: '/home/u/b', readOnly: true }] },
      shell: { enabled: true, allowedCommands: ['git', 'node'] },
      desktop: { hostDisplayAccess: true, appControl: true, apps: { editor: { path: '/usr/bin/gedit', args: ['--new-window'] } } },
      services: { allowed: ['nginx.service'], control: true },
    };
    const draft = toDraft(file);
    expect(draft.filesystem.roots).toEqual([
      { path: '/home/u/a', readOnly: false },
      { path: '/home/u/b', readOnly: true },
    ]);
    expect(draft.desktop.apps).toEqual([{ name: 'editor', path: '/usr/bin/gedit', args: ['--new-window'], allowExtraArgs: false }]);
    const saved = configSchema.parse(toConfig(draft));
    expect(saved).toEqual(configSchema.parse({ ...file, filesystem: { ...file.filesystem, roots: draft.filesystem.roots } }));
    expect(toConfig(draft).$schema).toBe(file.$schema);
  });

  it('saves every section the schema knows, including ones without a special shape (chatgpt)', () => {
    const file = { chatgpt: { searchFetch: true }, process: { list: true, ownOnly: true } };
    const config = toConfig(toDraft(file));
    expect(Object.keys(config)).toEqual(Object.keys(configSchema.parse({})));
    expect(configSchema.parse(config)).toEqual(configSchema.parse(file));
  });

  it('names the sections whose edits are unsaved', () => {
    const saved = toDraft({ shell: { enabled: true } });
    const edited = structuredClone(saved);
    expect(changedSections(edited, saved)).toEqual([]);
    edited.shell.allowedCommands.push('git');
    edited.chatgpt.searchFetch = true;
    expect(changedSections(edited, saved)).toEqual(['shell', 'chatgpt']);
  });

  it('a cleared token is left out of the file', () => {
    const draft = toDraft({ server: { token: 'y'.repeat(20) } });
    draft.server.token = '';
    expect((toConfig(draft).server as Record<string, unknown>).token).toBeUndefined();
  });

  it('keeps invalid values so they can be shown and fixed, coercing numeric text', () => {
    const draft = toDraft({ server: { port: 'eighty', maxRequestBytes: '9000000' }, filesystem: { read: 'yes', roots: 'nope' } });
    expect(Number.isNaN(draft.server.port)).toBe(true);
    expect(draft.server.maxRequestBytes).toBe(9000000);
    expect(draft.filesystem.read).toBe(true);
    expect(draft.filesystem.roots).toEqual([]);
    expect(validateDraft(draft).get('server.port')).toBe('enter a port number from 0 to 65535');
  });

  it('detects changes by content, not identity', () => {
    const a = defaultDraft();
    const b = structuredClone(a);
    expect(sameSettings(a, b)).toBe(true);
    b.shell.allowedCommands.push('git');
    expect(sameSettings(a, b)).toBe(false);
  });

  it('lists keys the schema does not know', () => {
    expect(unknownKeys({ $schema: 'x', server: { port: 1, colour: 'red' }, plugins: [] })).toEqual(['server.colour', 'plugins']);
    expect(unknownKeys(null)).toEqual([]);
    expect(unknownKeys({ server: { token: 'x' }, tunnel: { tunnelId: 't', clientPath: '/c', connectAtStart: true, key: 'no' } })).toEqual(['tunnel.key']);
  });

  it('keeps the tunnel settings, and drops an empty tunnel id or client path instead of saving ""', () => {
    const id = 'tunnel_0123456789abcdef0123456789abcdef';
    const draft = toDraft({ tunnel: { tunnelId: id, clientPath: '/opt/tunnel-client', connectAtStart: true } });
    expect(draft.tunnel).toEqual({ tunnelId: id, clientPath: '/opt/tunnel-client', connectAtStart: true });
    expect(toConfig(draft).tunnel).toEqual({ tunnelId: id, clientPath: '/opt/tunnel-client', connectAtStart: true });
    draft.tunnel.tunnelId = '';
    draft.tunnel.clientPath = '';
    expect(toConfig(draft).tunnel).toEqual({ connectAtStart: true });
    draft.tunnel.tunnelId = 'tunnel_nope';
    expect(validateDraft(draft).get('tunnel.tunnelId')).toBe('expected tunnel_ followed by 32 lowercase letters or digits');
  });
});

describe('validation by field', () => {
  it('reports each problem at its field, in words', () => {
    const draft = defaultDraft();
    draft.server.port = 70000;
    draft.filesystem.roots.push({ path: 'relative/dir', readOnly: false });
    draft.shell.maxRuntimeMs = -5;
    draft.filesystem.maxReadBytes = 512 * 1024 * 1024;
    draft.shell.allowedCommands.push('');
    const errors = validateDraft(draft);
    expect(errors.get('server.port')).toBe('enter a port number from 0 to 65535');
    expect(errors.get('filesystem.roots.0.path') ?? errors.get('filesystem.roots.0')).toContain('absolute path');
    expect(errors.get('shell.maxRuntimeMs')).toBe('must be more than 0 ms');
    expect(errors.get('filesystem.maxReadBytes')).toBe('must be at most 256 MiB');
    expect(errors.get('shell.allowedCommands.0')).toBe('must not be empty');
  });

  it('shows the request/write size rule on both fields', () => {
    const draft = defaultDraft();
    draft.filesystem.maxWriteBytes = 16 * 1024 * 1024;
    const errors = validateDraft(draft);
    expect(errors.get('server.maxRequestBytes')).toContain('larger than filesystem.maxWriteBytes');
    expect(errors.get('filesystem.maxWriteBytes')).toContain('Connection › Advanced');
  });

  it('keys app problems by their position in the list', () => {
    const draft = defaultDraft();
    draft.desktop.apps.push(
      { name: 'ok', path: '/bin/ok', args: [], allowExtraArgs: false },
      { name: 'bad name', path: 'relative', args: [], allowExtraArgs: false },
    );
    const errors = validateDraft(draft);
    expect(errors.get('desktop.apps.1.name')).toContain('letters, digits');
    draft.desktop.apps[1]!.name = 'ok';
    expect(validateDraft(draft).get('desktop.apps.1.name')).toBe('another app already has this name');
    expect(fieldKey(['desktop', 'apps', 'ok', 'path'], draft)).toBe('desktop.apps.0.path');
    expect(issuesToErrors([{ path: ['server', 'host'], message: 'must not be empty' }], draft)).toEqual(new Map([['server.host', 'must not be empty']]));
  });
});

describe('dangerous grants', () => {
  const env = { homeDir: '/home/me', platform: 'linux' };

  it.each([
    ['/', WARNINGS.fileSystemRoot],
    ['/home/me', WARNINGS.homeRoot],
    ['/home/me/', WARNINGS.homeRoot],
    ['/home/me/projects', null],
    ['/home', null],
    ['', null],
  ])('root %s', (path, warning) => {
    expect(rootWarning(path, env)).toBe(warning);
  });

  it('Windows drives and home, case-insensitively', () => {
    const win = { homeDir: 'C:\\Users\\Me', platform: 'win32' };
    expect(rootWarning('C:\\', win)).toBe(WARNINGS.fileSystemRoot);
    expect(rootWarning('d:/', win)).toBe(WARNINGS.fileSystemRoot);
    expect(rootWarning('c:/users/me/', win)).toBe(WARNINGS.homeRoot);
    expect(rootWarning('C:\\Users\\Me\\code', win)).toBeNull();
  });

  it('"*" says what the sandbox in effect allows: "auto" is the workspace sandbox on Linux, none on macOS and Windows', () => {
    const draft = defaultDraft();
    draft.shell.enabled = true;
    draft.shell.allowedCommands = ['*'];
    const sandboxed = commandsWarning(draft, 'linux');
    expect(sandboxed).toContain('write only in writable shared folders and a private temp folder');
    expect(sandboxed).not.toContain("your account's rights");
    const unsandboxed = "Any program on this computer can be run, with your account's rights: anything your account can reach.";
    expect(commandsWarning(draft, 'darwin')).toBe(unsandboxed);
    expect(commandsWarning(draft, 'win32')).toBe(unsandboxed);
    draft.shell.sandbox = 'off';
    expect(commandsWarning(draft, 'linux')).toBe(unsandboxed);
    draft.shell.sandbox = 'read-only';
    expect(commandsWarning(draft, 'darwin')).toContain('write only in a private temp folder');
    expect(commandsWarning(draft, 'win32')).toBe(unsandboxed); // refused at start there, never pretended
  });

  it('any command, non-loopback host, host display access', () => {
    const draft = defaultDraft();
    expect([commandsWarning(draft, 'linux'), hostWarning(draft), displayWarning(draft)]).toEqual([null, null, null]);
    draft.shell.allowedCommands = ['*'];
    expect(commandsWarning(draft, 'linux')).toBeNull(); // shell still off
    draft.shell.enabled = true;
    expect(commandsWarning(draft, 'linux')).toMatch(/^Any program on this computer can be run, and run any code, within the sandbox/);
    draft.shell.allowedCommands = ['rg', 'ls'];
    expect(commandsWarning(draft, 'linux')).toBeNull();
    draft.shell.allowedCommands = ['rg', '/usr/bin/git'];
    expect(commandsWarning(draft, 'linux')).toBe(WARNINGS.codeRunner);
    draft.shell.allowedCommands = ['C:\\Python\\Python.exe'.replace('.exe', ''), 'ls'];
    expect(commandsWarning(draft, 'linux')).toBe(WARNINGS.codeRunner);
    draft.server.host = '0.0.0.0';
    expect(hostWarning(draft)).toBe(WARNINGS.remoteHost);
    draft.desktop.hostDisplayAccess = true;
    expect(displayWarning(draft)).toBe(WARNINGS.hostDisplay);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.5.6.7', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['192.168.1.10', false],
    ['::', false],
    ['example.com', false],
  ])('loopback %s -> %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('formatting', () => {
  it.each([
    [512, '512 bytes'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [4 * 1024 * 1024, '4 MiB'],
    [1.5 * 1024 * 1024, '1.5 MiB'],
  ])('bytes %d -> %s', (n, text) => expect(formatBytes(n)).toBe(text));

  it.each([
    [0.4, '0 ms'],
    [48.6, '49 ms'],
    [1500, '1.5 s'],
    [120_000, '2 min'],
  ])('duration %d -> %s', (n, text) => expect(formatDuration(n)).toBe(text));
});
