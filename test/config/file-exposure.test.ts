/** A config file that names server.token must be private, as the token file and the tunnel key file are. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configTokenExposure, exposure, fileHoldsToken, rootWarning } from '../../main/config/file-exposure.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

describe.skipIf(process.platform === 'win32')('file exposure', () => {
  it('names a config file holding server.token that others can read, with the fix', () => {
    const file = writeJson(path.join(dir, 'config.json'), { server: { token: 'x'.repeat(32) } });
    expect(configTokenExposure(file)).toBeNull();
    fs.chmodSync(file, 0o644);
    expect(exposure(file)).toBe('other users can read it (mode 644)');
    expect(configTokenExposure(file)).toBe(
      `the config file ${file} holds server.token and other users can read it (mode 644): run "chmod 600 ${file}", or remove server.token from it (the app's own token file is used then)`,
    );
    fs.chmodSync(file, 0o640);
    expect(configTokenExposure(file)).toMatch(/mode 640/);
  });

  it('leaves a readable config without a token alone, and no file at all', () => {
    const file = writeJson(path.join(dir, 'config.json'), { filesystem: { roots: [dir] } });
    fs.chmodSync(file, 0o644);
    expect(fileHoldsToken(file)).toBe(false);
    expect(configTokenExposure(file)).toBeNull();
    expect(configTokenExposure(null)).toBeNull();
    expect(configTokenExposure(path.join(dir, 'missing.json'))).toBeNull();
    fs.writeFileSync(file, '{ not json');
    expect(fileHoldsToken(file)).toBe(false);
  });

  it('warns when the server runs as root, only then', () => {
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    expect(rootWarning()).toBe(
      root ? 'the server runs as root: every folder, command and process you grant is granted with root’s rights; run it as your own user' : null,
    );
  });
});
