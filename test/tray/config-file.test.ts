import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activeOverrides, explainStartFailure, readConfigForEditing, resolveConfigPath } from '../../main/tray/config-file.js';
import { sectionForField } from '../../main/tray/sections.js';
import { ConfigError, loadConfig } from '../../main/config/load.js';
import { ListenError } from '../../main/mcp/http.js';
import { SandboxUnavailableError } from '../../main/policy/sandbox.js';

describe('the config file as the settings window sees it', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-file-'));
    file = path.join(dir, 'config.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a missing file is an empty config to start from', () => {
    expect(readConfigForEditing(file)).toEqual({ exists: false, config: {}, fileError: null, issues: [] });
  });

  it('an invalid file is still editable, with its issues by key path', () => {
    fs.writeFileSync(file, JSON.stringify({ server: { port: 'eighty' }, shell: { enabled: true, extra: 1 } }));
    const read = readConfigForEditing(file);
    expect(read.config).toEqual({ server: { port: 'eighty' }, shell: { enabled: true, extra: 1 } });
    expect(read.issues.map((i) => i.path)).toEqual([['server', 'port'], ['shell']]);
  });

  it('reads a file that starts with a byte order mark, as the server does', () => {
    fs.writeFileSync(file, '\uFEFF' + JSON.stringify({ server: { port: 8765 } }));
    expect(readConfigForEditing(file)).toEqual({ exists: true, config: { server: { port: 8765 } }, fileError: null, issues: [] });
    expect(loadConfig({ cli: { config: file }, env: {} }).config.server.port).toBe(8765);
  });

  it.each([
    ['{ not json', 'is not valid JSON'],
    ['[1, 2]', 'must hold a JSON object'],
    ['null', 'must hold a JSON object'],
  ])('%s -> fileError', (text, message) => {
    fs.writeFileSync(file, text);
    const read = readConfigForEditing(file);
    expect(read.config).toBeNull();
    expect(read.fileError).toContain(message);
  });

  it('resolves the same path as the loader: CHATGPT_MCP_CONFIG, else the per-OS default', () => {
    expect(resolveConfigPath({ CHATGPT_MCP_CONFIG: '/x/c.json' }, 'linux', '/home/u')).toBe('/x/c.json');
    expect(resolveConfigPath({}, 'linux', '/home/u')).toBe('/home/u/.config/chatgpt-mcp/config.json');
    expect(resolveConfigPath({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/chatgpt-mcp/config.json');
  });

  it('names environment overrides without their values', () => {
    expect(activeOverrides({ CHATGPT_MCP_TOKEN: 'secret', CHATGPT_MCP_PORT: '', PATH: '/bin' })).toEqual(['CHATGPT_MCP_TOKEN']);
  });

  it('explains start failures with the field to open', () => {
    fs.writeFileSync(file, JSON.stringify({ desktop: { apps: { 'bad name!': { path: '/bin/x' } } } }));
    expect(explainStartFailure(new ConfigError('Invalid configuration in file'), file)).toEqual({
      message: 'Invalid configuration in file',
      field: ['desktop', 'apps', 'bad name!'],
    });
    expect(explainStartFailure(new ListenError('Port 80 on 127.0.0.1 is already in use. Choose another', 'in-use'), file).field).toEqual(['server', 'port']);
    expect(explainStartFailure(new ListenError('Refusing to listen on 10.0.0.5: it is not a loopback address.', 'not-loopback'), file).field).toEqual([
      'server',
      'host',
    ]);
    expect(explainStartFailure(new ListenError('No bearer token: set ...', 'no-token'), file).field).toEqual(['server', 'token']);
    const sandbox = new SandboxUnavailableError(
      'shell.sandbox is "workspace", but bubblewrap is not installed: install it with sudo apt-get install bubblewrap',
      ['shell', 'sandbox'],
    );
    expect(explainStartFailure(sandbox, file)).toEqual({ message: sandbox.message, field: ['shell', 'sandbox'] });
    expect(sectionForField(explainStartFailure(sandbox, file).field)).toBe('commands');
    expect(explainStartFailure(new TypeError('secret /path'), file)).toEqual({ message: 'Unexpected failure: TypeError', field: null });
  });

  it('maps fields to settings sections', () => {
    expect(sectionForField(['server', 'port'])).toBe('connection');
    expect(sectionForField(['filesystem', 'roots', 0, 'path'])).toBe('files');
    expect(sectionForField(['shell'])).toBe('commands');
    expect(sectionForField(['process', 'kill'])).toBe('processes');
    expect(sectionForField(['desktop', 'apps'])).toBe('desktop');
    expect(sectionForField(['services', 'allowed', 1])).toBe('services');
    expect(sectionForField([])).toBe('connection');
    expect(sectionForField(null)).toBe('connection');
  });
});
