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
  it('writes a config with the safe defaults and no token (the token file is the one token), private to the owner', async () => {
    const file = path.join(dir, 'chatgpt-mcp', 'config.json');
    expect(await ensureConfigFile(file)).toBe(true);
    const config = configSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(config.server.token).toBeUndefined();
    expect(config.server.auth).toBe('bearer');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(config.shell.enabled).toBe(false);
    expect(config.filesystem.roots).toEqual([]);
  });

  it('leaves an existing config alone', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"process":{"list":true}}');
    expect(await ensureConfigFile(file)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"process":{"list":true}}');
  });
});
