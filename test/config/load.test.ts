/** Configuration: precedence, defaults, strictness, immutability, fail-closed start. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config/load.js';
import { defaultConfigPath } from '../../main/config/app-dir.js';
import { redactConfig } from '../../main/config/redact.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const load = (env: Record<string, string> = {}, cli = {}) =>
  loadConfig({ env: { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'xdg'), ...env }, cli, platform: 'linux', home: dir });

describe('defaults', () => {
  it('are safe: loopback, nothing writable, no shell, no processes, no desktop', () => {
    const { config, file } = load();
    expect(file).toBeNull();
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 3210, allowNonLoopback: false, logLevel: 'info' });
    expect(config.server.token).toBeUndefined();
    expect(config.filesystem).toMatchObject({ write: false, roots: [], protectSecrets: true });
    expect(config.shell).toMatchObject({ enabled: false, allowedCommands: [], allowEnv: false });
    expect(config.process).toEqual({ list: false, kill: false, ownOnly: false });
    expect(config.shell).toMatchObject({ allowedEnv: [], maxConcurrent: 8 });
    expect(config.desktop).toMatchObject({ hostDisplayAccess: false, screen: false, input: false, browser: false, appControl: false });
    expect(config.services).toEqual({ allowed: [], control: false });
  });

  it('parses the spec example configuration unchanged', () => {
    const file = writeJson(path.join(dir, 'spec.json'), {
      filesystem: { read: true, write: true, roots: ['/home/alex/projects', '/home/alex/Downloads'], maxReadBytes: 1048576, maxWriteBytes: 4194304 },
      shell: { enabled: true, allowedCommands: ['git', 'node', 'pnpm', 'npm', 'python3', 'bash'], maxRuntimeMs: 120000, maxOutputBytes: 4194304 },
      process: { list: true, kill: true },
    });
    const { config } = load({ CHATGPT_MCP_CONFIG: file });
    expect(config.filesystem.roots).toEqual(['/home/alex/projects', '/home/alex/Downloads']);
    expect(config.shell.allowedCommands).toContain('python3');
    expect(config.process).toEqual({ list: true, kill: true, ownOnly: false });
  });

  it('accepts roots as plain strings or {path, readOnly}', () => {
    const file = writeJson(path.join(dir, 'c.json'), { filesystem: { roots: ['/a', { path: '/b', readOnly: true }, { path: 'C:\\Users\\me' }] } });
    expect(load({ CHATGPT_MCP_CONFIG: file }).config.filesystem.roots).toEqual([
      '/a',
      { path: '/b', readOnly: true },
      { path: 'C:\\Users\\me', readOnly: false },
    ]);
  });
});

describe('precedence: CLI > env > file > defaults', () => {
  it('applies each layer over the one below', () => {
    const file = writeJson(path.join(dir, 'c.json'), { server: { host: '127.0.0.2', port: 4000, logLevel: 'warn' } });
    expect(load({ CHATGPT_MCP_CONFIG: file }).config.server).toMatchObject({ host: '127.0.0.2', port: 4000, logLevel: 'warn' });
    expect(load({ CHATGPT_MCP_CONFIG: file, CHATGPT_MCP_PORT: '5000', CHATGPT_MCP_LOG_LEVEL: 'debug' }).config.server).toMatchObject({
      host: '127.0.0.2',
      port: 5000,
      logLevel: 'debug',
    });
    const both = load({ CHATGPT_MCP_CONFIG: file, CHATGPT_MCP_PORT: '5000', CHATGPT_MCP_HOST: '127.0.0.3' }, { port: '6000', logLevel: 'error' }).config.server;
    expect(both).toMatchObject({ host: '127.0.0.3', port: 6000, logLevel: 'error' });
  });

  it('takes --config over CHATGPT_MCP_CONFIG', () => {
    const a = writeJson(path.join(dir, 'a.json'), { server: { port: 1111 } });
    const b = writeJson(path.join(dir, 'b.json'), { server: { port: 2222 } });
    expect(load({ CHATGPT_MCP_CONFIG: a }, { config: b }).config.server.port).toBe(2222);
  });

  it('reads the token from the environment over the file', () => {
    const file = writeJson(path.join(dir, 'c.json'), { server: { token: 'file-token-0123456789' } });
    expect(load({ CHATGPT_MCP_CONFIG: file, CHATGPT_MCP_TOKEN: 'env-token-0123456789' }).config.server.token).toBe('env-token-0123456789');
  });

  it('reads the default per-OS file when present', () => {
    writeJson(path.join(dir, 'xdg', 'chatgpt-mcp', 'config.json'), { server: { port: 7777 } });
    const loaded = load();
    expect(loaded.config.server.port).toBe(7777);
    expect(loaded.file).toBe(path.join(dir, 'xdg', 'chatgpt-mcp', 'config.json'));
  });
});

describe('fails closed', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['an unknown top-level key', { bogus: true }, /\(top level\): unknown key "bogus" \(valid here: server, filesystem, /],
    ['an unknown nested key', { shell: { enabld: true } }, /shell: unknown key "enabld" \(did you mean "enabled"\?\)/],
    ['a wrong type', { shell: { enabled: 'yes' } }, /shell\.enabled: .*expected boolean/],
    ['a relative root', { filesystem: { roots: ['projects'] } }, /filesystem\.roots\[0\]: expected an absolute path/],
    ['a tilde root', { filesystem: { roots: ['~/projects'] } }, /filesystem\.roots\[0\]: expected an absolute path/],
    ['a port out of range', { server: { port: 70000 } }, /server\.port: /],
    ['a short token', { server: { token: 'short' } }, /server\.token: must be at least 16 characters/],
    ['a bad log level', { server: { logLevel: 'loud' } }, /server\.logLevel: expected one of silent, error, warn, info, debug/],
    [
      'a request cap below the write cap',
      { server: { maxRequestBytes: 1000 }, filesystem: { maxWriteBytes: 2000 } },
      /server\.maxRequestBytes: must be larger than filesystem\.maxWriteBytes/,
    ],
    ['a bad app name', { desktop: { apps: { 'a b': { path: '/bin/x' } } } }, /desktop\.apps\.a b: invalid name: app names use/],
    ['a non-object', [1, 2], /expected a JSON object at the top level/],
  ];

  it.each(cases)('on %s, naming the file, the key path and what was expected', (_name, value, message) => {
    const file = writeJson(path.join(dir, 'bad.json'), value);
    const attempt = () => load({ CHATGPT_MCP_CONFIG: file });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(`Invalid configuration in ${file}`);
  });

  it('on invalid JSON', () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '{"server": {');
    expect(() => load({ CHATGPT_MCP_CONFIG: file })).toThrow(/Invalid configuration in .*broken\.json: not valid JSON/);
  });

  it('on an explicitly named file that does not exist (a missing default file means defaults)', () => {
    expect(() => load({ CHATGPT_MCP_CONFIG: path.join(dir, 'missing.json') })).toThrow(/Config file not found: .*missing\.json/);
    expect(() => load()).not.toThrow();
  });

  it('on bad environment values, naming the variable, without echoing the token', () => {
    expect(() => load({ CHATGPT_MCP_PORT: 'eighty' })).toThrow(/server\.port \(from CHATGPT_MCP_PORT\): expected a port number/);
    let message = '';
    try {
      load({ CHATGPT_MCP_TOKEN: 'sh0rt' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/server\.token \(from CHATGPT_MCP_TOKEN\)/);
    expect(message).not.toContain('sh0rt');
  });
});

describe('immutability and secrets', () => {
  it('deep-freezes the parsed config', () => {
    const file = writeJson(path.join(dir, 'c.json'), { filesystem: { roots: ['/a'] }, shell: { allowedCommands: ['git'] } });
    const { config } = load({ CHATGPT_MCP_CONFIG: file });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.shell.allowedCommands)).toBe(true);
    expect(() => (config.shell.allowedCommands as string[]).push('rm')).toThrow(TypeError);
    expect(() => {
      (config.server as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('masks the token when printing', () => {
    const { config } = load({ CHATGPT_MCP_TOKEN: 'secret-token-0123456789' });
    const printed = JSON.stringify(redactConfig(config));
    expect(printed).not.toContain('secret-token-0123456789');
    expect(printed).toContain('<redacted>');
    expect(config.server.token).toBe('secret-token-0123456789');
  });
});

describe('default config path per OS', () => {
  it.each([
    ['linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/u', '/x/cfg/chatgpt-mcp/config.json'],
    ['linux', {}, '/home/u', '/home/u/.config/chatgpt-mcp/config.json'],
    ['linux', { XDG_CONFIG_HOME: 'relative' }, '/home/u', '/home/u/.config/chatgpt-mcp/config.json'],
    ['darwin', {}, '/Users/u', '/Users/u/Library/Application Support/chatgpt-mcp/config.json'],
    ['win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u', 'C:\\Users\\u\\AppData\\Roaming\\chatgpt-mcp\\config.json'],
  ] as const)('%s %j', (platform, env, home, expected) => {
    expect(defaultConfigPath(platform, env, home)).toBe(expected);
  });
});

describe('reading the file', () => {
  const load = (text: string) => {
    const file = path.join(dir, 'read.json');
    fs.writeFileSync(file, text);
    return () => loadConfig({ cli: { config: file }, env: {} });
  };

  it('accepts a UTF-8 byte order mark', () => {
    expect(load('\uFEFF{"shell":{"enabled":true}}')().config.shell.enabled).toBe(true);
  });

  it('names the line and column of a JSON syntax error', () => {
    expect(load('{\n  "a": 1,\n}')).toThrow(/not valid JSON at line 3, column 1: Expected double-quoted property name/);
  });

  it.each([
    ['{"shell":{"allowedCommand":["git"]}}', 'shell: unknown key "allowedCommand" (did you mean "allowedCommands"?)'],
    ['{"server":{"prot":1}}', 'server: unknown key "prot" (did you mean "port"?)'],
    ['{"filesytem":{}}', '(top level): unknown key "filesytem" (did you mean "filesystem"?)'],
    ['{"desktop":{"hostDisplay":true}}', 'desktop: unknown key "hostDisplay" (did you mean "hostDisplayAccess"?)'],
  ])('suggests the nearest valid key for %s', (text, message) => {
    expect(load(text)).toThrow(message);
  });

  it('lists the valid keys when none is close', () => {
    expect(load('{"shell":{"zzzzzzzz":1}}')).toThrow(/unknown key "zzzzzzzz" \(valid here: enabled, allowedCommands, /);
  });
});

describe('mistakes JSON makes easy, explained', () => {
  it('a number or a switch in quotes: write it without them', () => {
    const file = writeJson(path.join(dir, 'quoted.json'), { server: { port: '3210' }, filesystem: { write: 'true' } });
    const message = (() => {
      try {
        load({ CHATGPT_MCP_CONFIG: file });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message).toContain('server.port: expected a port number from 0 to 65535, got the string "3210": write the number without quotes, "port": 3210');
    expect(message).toContain('filesystem.write: expected true or false without quotes, "write": true');
  });

  it('one folder where a list is expected: write it in [ ]', () => {
    const file = writeJson(path.join(dir, 'roots.json'), { filesystem: { roots: '/home/me/project' } });
    expect(() => load({ CHATGPT_MCP_CONFIG: file })).toThrow('filesystem.roots: expected a list in [ ], got one string: write "roots": ["/home/me/project"]');
  });

  it('a folder where the file should be, and a file this user may not read, in words', () => {
    const folder = path.join(dir, 'a-folder');
    fs.mkdirSync(folder);
    expect(() => load({ CHATGPT_MCP_CONFIG: folder })).toThrow(`Cannot read config file ${folder}: it is a folder, not a file (EISDIR)`);
    const file = writeJson(path.join(dir, 'locked.json'), {});
    fs.chmodSync(file, 0);
    // root reads any file: the refusal can only be seen as another user.
    if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
      expect(() => load({ CHATGPT_MCP_CONFIG: file })).toThrow(`Cannot read config file ${file}: permission denied (EACCES): this user may not read it`);
    }
  });
});
