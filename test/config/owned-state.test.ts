/** The app folder and its state files are trusted only when they are this user's alone. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OwnedStateError, readOwnedFile, secureAppFolder } from '../../main/config/owned-state.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const posix = process.platform !== 'win32';
/** Files of another user can only be made by root (CI and this machine run the tests as root). */
const asRoot = posix && process.getuid?.() === 0;
const NOBODY = 65534;

let dir: string;
beforeEach(() => {
  dir = makeTempDir('owned-state-');
});
afterEach(() => removeDir(dir));

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe.runIf(posix)('secureAppFolder', () => {
  it('accepts a missing folder and an owner-only one, unchanged', () => {
    expect(secureAppFolder(path.join(dir, 'missing'))).toEqual([]);
    const app = path.join(dir, 'app');
    fs.mkdirSync(app, { mode: 0o700 });
    expect(secureAppFolder(app)).toEqual([]);
    expect(mode(app)).toBe(0o700);
  });

  it('takes write access away from the group and others on a folder of ours, and says so', () => {
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.chmodSync(app, 0o777);
    expect(secureAppFolder(app, { repair: false })).toEqual([expect.stringContaining('can be written by other users (mode 777)')]);
    expect(mode(app)).toBe(0o777);
    expect(secureAppFolder(app)).toEqual([expect.stringContaining('could be written by other users (mode 777); they no longer can')]);
    expect(mode(app)).toBe(0o755);
  });

  it('refuses a folder that is a link', () => {
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(dir, 'app'));
    expect(() => secureAppFolder(path.join(dir, 'app'))).toThrow(OwnedStateError);
  });

  it.runIf(asRoot)('refuses a folder another user owns', () => {
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.chownSync(app, NOBODY, NOBODY);
    expect(() => secureAppFolder(app)).toThrow(/belongs to another user \(uid 65534\)/);
  });
});

describe.runIf(posix)('readOwnedFile', () => {
  const file = () => path.join(dir, 'state');

  it('reads a file of ours; a missing one is null', () => {
    expect(readOwnedFile(file(), 'the state', true)).toBeNull();
    fs.writeFileSync(file(), 'x', { mode: 0o600 });
    expect(readOwnedFile(file(), 'the state', true)).toBe('x');
  });

  it('refuses a secret others can read, and any state others can write', () => {
    fs.writeFileSync(file(), 'x');
    fs.chmodSync(file(), 0o644);
    expect(() => readOwnedFile(file(), 'the token file', true, 'delete it')).toThrow(
      /the token file .* can be read or written by other users \(mode 644\), so it is not trusted: delete it/,
    );
    expect(readOwnedFile(file(), 'the OAuth state file', false)).toBe('x');
    fs.chmodSync(file(), 0o666);
    expect(() => readOwnedFile(file(), 'the OAuth state file', false)).toThrow(/can be written by other users \(mode 666\)/);
  });

  it('refuses a link, even to a file of ours', () => {
    fs.writeFileSync(path.join(dir, 'real'), 'x', { mode: 0o600 });
    fs.symlinkSync(path.join(dir, 'real'), file());
    expect(() => readOwnedFile(file(), 'the token file', true)).toThrow(/is a symbolic link/);
  });

  it.runIf(asRoot)('refuses a file another user owns, whatever its mode', () => {
    fs.writeFileSync(file(), 'x', { mode: 0o600 });
    fs.chownSync(file(), NOBODY, NOBODY);
    expect(() => readOwnedFile(file(), 'the OAuth state file', false)).toThrow(/belongs to another user \(uid 65534\)/);
  });
});
