import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureConfigFile } from '../../main/tray/first-run.js';
import { configSchema } from '../../main/config/schema.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

describe('first start of the tray app', () => {
  it('writes a config holding a fresh token, private to the owner, in a new folder', async () => {
    const file = path.join(dir, 'chatgpt-mcp', 'config.json');
    expect(await ensureConfigFile(file)).toBe(true);
    const config = configSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(config.server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Everything else keeps the safe defaults.
    expect(config.shell.enabled).toBe(false);
    expect(config.filesystem.roots).toEqual([]);
  });

  it('leaves an existing config alone, and tokens differ between installs', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"process":{"list":true}}');
    expect(await ensureConfigFile(file)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"process":{"list":true}}');
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    await ensureConfigFile(a);
    await ensureConfigFile(b);
    expect(JSON.parse(fs.readFileSync(a, 'utf8')).server.token).not.toBe(JSON.parse(fs.readFileSync(b, 'utf8')).server.token);
  });
});
