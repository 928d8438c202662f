import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigValidationError, saveConfig, validateConfig } from '../../main/config/save.js';
import { loadConfig } from '../../main/config/load.js';
import { configSchema } from '../../main/config/schema.js';

const posix = process.platform !== 'win32';

describe('saveConfig (atomic, validated, private)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-save-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the folder and a 0600 file that the loader reads back as saved', async () => {
    const file = path.join(dir, 'nested', 'chatgpt-mcp', 'config.json');
    const saved = await saveConfig(file, { server: { port: 4000, token: 'a'.repeat(20) }, shell: { enabled: true, allowedCommands: ['git'] } });
    expect(saved.server.port).toBe(4000);
    if (posix) {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    }
    const loaded = loadConfig({ cli: { config: file }, env: {} });
    expect(loaded.config).toEqual(configSchema.parse({ server: { port: 4000, token: 'a'.repeat(20) }, shell: { enabled: true, allowedCommands: ['git'] } }));
    // The file spells out every setting in effect, defaults included.
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).filesystem.maxReadBytes).toBe(1024 * 1024);
    expect(Object.isFrozen(saved)).toBe(true);
  });

  it('writes nothing when the value is invalid, and says which field is wrong', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"server":{"port":1234}}\n');
    const before = fs.readFileSync(file, 'utf8');
    const error = await saveConfig(file, { server: { port: 70000 }, bogus: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigValidationError);
    const issues = (error as ConfigValidationError).issues;
    expect(issues).toContainEqual({ path: ['server', 'port'], message: expect.any(String) });
    expect(issues).toContainEqual({ path: [], message: 'unknown key(s) "bogus"' });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('replaces an existing file in one step, leaving no temp files, and tightens its mode', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    await saveConfig(file, { process: { list: true } });
    await saveConfig(file, { process: { list: true, kill: true } });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).process).toEqual({ list: true, kill: true, ownOnly: false });
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    if (posix) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it.skipIf(!posix)('writes through a symlinked config file to its target, keeping the link', async () => {
    const real = path.join(dir, 'dotfiles', 'config.json');
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, '{}');
    const link = path.join(dir, 'config.json');
    fs.symlinkSync(real, link);
    await saveConfig(link, { services: { allowed: ['nginx.service'] } });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8')).services.allowed).toEqual(['nginx.service']);
  });

  it.skipIf(!posix)('a link whose target does not exist yet makes the target, keeping the link', async () => {
    const real = path.join(dir, 'dotfiles', 'config.json');
    fs.mkdirSync(path.dirname(real));
    const link = path.join(dir, 'config.json');
    fs.symlinkSync('dotfiles/config.json', link);
    await saveConfig(link, {});
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(real)).toBe(true);
  });

  it.skipIf(!posix)('a config file without its write bit is left as it is, and the error says why', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{}', { mode: 0o444 });
    await expect(saveConfig(file, { process: { list: true } })).rejects.toMatchObject({
      name: 'ConfigReadOnlyError',
      code: 'EACCES',
      message: expect.stringContaining('is read-only (mode 0444): nothing was written'),
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('{}');
    expect(fs.statSync(file).mode & 0o777).toBe(0o444);
  });

  it('cleans up its temp file when the final rename fails', async () => {
    const file = path.join(dir, 'config.json');
    fs.mkdirSync(file); // a directory where the file should go: rename cannot replace it
    fs.writeFileSync(path.join(file, 'keep'), 'x');
    await expect(saveConfig(file, {})).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('validateConfig reports issues with key paths, including cross-field rules', () => {
    const result = validateConfig({ server: { maxRequestBytes: 1024 }, filesystem: { maxWriteBytes: 2048 } });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.issues[0]).toEqual({ path: ['server', 'maxRequestBytes'], message: expect.stringContaining('larger than filesystem.maxWriteBytes') });
    expect(validateConfig({}).ok).toBe(true);
  });
});
