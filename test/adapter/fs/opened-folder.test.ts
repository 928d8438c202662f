import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HANDLE_PATHS } from '../../../adapter/fs/opened-path.js';
import { withOpenedFolder } from '../../../adapter/fs/opened-folder.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => (dir = makeTempDir()));
afterEach(() => removeDir(dir));

describe('withOpenedFolder', () => {
  it.skipIf(!HANDLE_PATHS)('refuses a folder that is not the one the walk saw (swapped meanwhile)', async () => {
    fs.mkdirSync(path.join(dir, 'a'));
    const seen = fs.lstatSync(path.join(dir, 'a'));
    fs.renameSync(path.join(dir, 'a'), path.join(dir, 'b'));
    fs.mkdirSync(path.join(dir, 'a'));
    await expect(withOpenedFolder(path.join(dir, 'a'), seen, async (named) => named)).rejects.toMatchObject({ code: 'ESTALE' });
  });

  it.skipIf(!HANDLE_PATHS)('names a long one through its descriptor, the same folder, closed after', async () => {
    const long = path.join(dir, ...Array.from({ length: 12 }, () => 'f'.repeat(200)));
    fs.mkdirSync(long, { recursive: true });
    const [short, ino] = await withOpenedFolder(long, fs.lstatSync(long), async (s) => [s, fs.statSync(s).ino] as const);
    expect(short).toMatch(/^\/proc\/self\/fd\/\d+$/);
    expect(ino).toBe(fs.statSync(long).ino);
    expect(fs.existsSync(short as string)).toBe(false);
  });

  it.skipIf(!HANDLE_PATHS)('refuses a symlink in a long folder’s place', async () => {
    const long = path.join(dir, ...Array.from({ length: 12 }, () => 'f'.repeat(200)));
    fs.mkdirSync(path.dirname(long), { recursive: true });
    fs.symlinkSync(dir, long);
    await expect(withOpenedFolder(long, fs.lstatSync(dir), async (s) => s)).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) });
  });
});
