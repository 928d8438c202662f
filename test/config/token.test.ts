/** The bearer token as serve gets it, and as config check looks at it without creating anything. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema, type ConfigInput } from '../../main/config/schema.js';
import { ensureBearerToken, existingBearerToken, tokenFilePath } from '../../main/config/token.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

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
