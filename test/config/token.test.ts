/** The bearer token as serve gets it, and as config check looks at it without creating anything. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema, type ConfigInput } from '../../main/config/schema.js';
import { ensureBearerToken, existingBearerToken, replaceToken, tokenFilePath } from '../../main/config/token.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));
const config = (server: ConfigInput['server'] = {}) => configSchema.parse({ server });

describe('existingBearerToken', () => {
  it('is null when bearer tokens are not accepted, and the config token when one is set', () => {
    expect(existingBearerToken(config({ auth: 'none' }), dir)).toBeNull();
    expect(existingBearerToken(config({ auth: 'oauth' }), dir)).toBeNull();
    expect(existingBearerToken(config({ token: 't'.repeat(32) }), dir)).toEqual({ token: 't'.repeat(32), source: 'config' });
  });

  it('says "to-create" for a missing file and creates nothing; serve then creates it and both read it back', async () => {
    expect(existingBearerToken(config(), dir)).toBe('to-create');
    expect(fs.existsSync(tokenFilePath(dir))).toBe(false);
    const made = await ensureBearerToken(config(), dir);
    expect(made).toMatchObject({ source: 'file', created: true });
    expect(existingBearerToken(config(), dir)).toEqual({ token: made!.token, source: 'file', file: tokenFilePath(dir) });
    expect(await ensureBearerToken(config(), dir)).toEqual({ token: made!.token, source: 'file', file: tokenFilePath(dir) });
  });

  it('throws for a token file that cannot be used, and ensureBearerToken refuses it the same way (never replaced)', async () => {
    fs.writeFileSync(tokenFilePath(dir), 'short\n', { mode: 0o600 });
    expect(() => existingBearerToken(config(), dir)).toThrow(/does not hold a usable token/);
    await expect(ensureBearerToken(config(), dir)).rejects.toThrow(/does not hold a usable token/);
    expect(fs.readFileSync(tokenFilePath(dir), 'utf8')).toBe('short\n');
    fs.rmSync(tokenFilePath(dir));
    fs.mkdirSync(path.join(dir, 'token'));
    expect(() => existingBearerToken(config({ auth: 'bearer+oauth' }), dir)).toThrow(/cannot read the token file .* \(EISDIR\)/);
  });
});

describe('a token file others can read', () => {
  it.skipIf(process.platform === 'win32')('is refused, as ssh refuses a private key others can read, and chmod 600 is the fix', async () => {
    const made = await ensureBearerToken(config(), dir);
    fs.chmodSync(made!.file!, 0o644);
    expect(() => existingBearerToken(config(), dir)).toThrow(
      `the token file ${made!.file} must be yours alone, but other users can read it (mode 644): run "chmod 600 ${made!.file}"`,
    );
    await expect(ensureBearerToken(config(), dir)).rejects.toThrow(/must be yours alone/);
    fs.chmodSync(made!.file!, 0o600);
    expect(existingBearerToken(config(), dir)).toMatchObject({ token: made!.token });
  });
});

describe('replaceToken: a new token where the one in use lives', () => {
  const appDir = () => path.join(dir, 'app');
  const configFile = () => path.join(dir, 'config.json');

  it('replaces the token file when the config names no token, and nothing else', async () => {
    writeJson(configFile(), { filesystem: { roots: [dir] } });
    const before = await ensureBearerToken(config(), appDir());
    const replaced = await replaceToken({ configFile: configFile(), appDir: appDir(), env: {} });
    expect(replaced).toEqual({ token: expect.not.stringMatching(before!.token), source: 'file', file: tokenFilePath(appDir()) });
    expect(fs.readFileSync(tokenFilePath(appDir()), 'utf8').trim()).toBe(replaced.token);
    expect(fs.statSync(tokenFilePath(appDir())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8'))).toEqual({ filesystem: { roots: [dir] } });
  });

  it('replaces server.token in the config file, keeping the rest as written (even a bad old token)', async () => {
    writeJson(configFile(), { server: { token: 'short', port: 4444 }, process: { list: true } });
    const replaced = await replaceToken({ configFile: configFile(), appDir: appDir(), env: {} });
    expect(replaced.source).toBe('config');
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8'))).toEqual({ server: { token: replaced.token, port: 4444 }, process: { list: true } });
    expect(fs.existsSync(tokenFilePath(appDir()))).toBe(false);
  });

  it('refuses a token set by CHATGPT_MCP_TOKEN, and a config file invalid for another reason, changing nothing', async () => {
    writeJson(configFile(), { server: { token: 'x'.repeat(32) } });
    await expect(replaceToken({ configFile: configFile(), appDir: appDir(), env: { CHATGPT_MCP_TOKEN: 'y'.repeat(32) } })).rejects.toThrow(
      'the token in use comes from CHATGPT_MCP_TOKEN: change that variable where it is set',
    );
    writeJson(configFile(), { server: { token: 'x'.repeat(32), port: 'eighty' } });
    await expect(replaceToken({ configFile: configFile(), appDir: appDir(), env: {} })).rejects.toThrow(/is invalid \(server\.port: .*\); fix it first/);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).server.token).toBe('x'.repeat(32));
  });
});
