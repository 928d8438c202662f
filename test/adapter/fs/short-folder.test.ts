import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HANDLE_PATHS } from '../../../adapter/fs/opened-path.js';
import { withShortFolder } from '../../../adapter/fs/short-folder.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => (dir = makeTempDir()));
afterEach(() => removeDir(dir));

describe('withShortFolder', () => {
  it('passes a short path through as it is', async () => {
    expect(await withShortFolder(dir, async (short) => short)).toBe(dir);
  });

  it.skipIf(!HANDLE_PATHS)('names a long one through its descriptor, the same folder, closed after', async () => {
    const long = path.join(dir, ...Array.from({ length: 12 }, () => 'f'.repeat(200)));
    fs.mkdirSync(long, { recursive: true });
    const [short, ino] = await withShortFolder(long, async (s) => [s, fs.statSync(s).ino] as const);
    expect(short).toMatch(/^\/proc\/self\/fd\/\d+$/);
    expect(ino).toBe(fs.statSync(long).ino);
    expect(fs.existsSync(short as string)).toBe(false);
  });

  it.skipIf(!HANDLE_PATHS)('refuses a symlink in a long folder’s place', async () => {
    const long = path.join(dir, ...Array.from({ length: 12 }, () => 'f'.repeat(200)));
    fs.mkdirSync(path.dirname(long), { recursive: true });
    fs.symlinkSync(dir, long);
    await expect(withShortFolder(long, async (s) => s)).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) });
  });
});
