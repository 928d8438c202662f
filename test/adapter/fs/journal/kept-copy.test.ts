import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySeen } from '../../../../adapter/fs/journal/kept-copy.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
  fs.writeFileSync(path.join(dir, 'secret-outside'), 'TOP SECRET\n');
  fs.writeFileSync(path.join(dir, 'file'), 'the owner\n');
});
afterEach(() => removeDir(dir));

describe('copySeen', () => {
  it('copies the file it was shown', async () => {
    await copySeen(path.join(dir, 'file'), fs.lstatSync(path.join(dir, 'file')), path.join(dir, 'blob'));
    expect(fs.readFileSync(path.join(dir, 'blob'), 'utf8')).toBe('the owner\n');
  });

  it('refuses a link swapped in its place since (it would keep, and undo put back, the file outside)', async () => {
    const seen = fs.lstatSync(path.join(dir, 'file'));
    fs.renameSync(path.join(dir, 'file'), path.join(dir, 'file.old'));
    fs.symlinkSync(path.join(dir, 'secret-outside'), path.join(dir, 'file'));
    await expect(copySeen(path.join(dir, 'file'), seen, path.join(dir, 'blob'))).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ESTALE)$/) });
    expect(fs.existsSync(path.join(dir, 'blob'))).toBe(false);
  });

  it('refuses another file swapped in its place (a rename over it)', async () => {
    const seen = fs.lstatSync(path.join(dir, 'file'));
    fs.copyFileSync(path.join(dir, 'secret-outside'), path.join(dir, 'swap'));
    fs.renameSync(path.join(dir, 'swap'), path.join(dir, 'file'));
    await expect(copySeen(path.join(dir, 'file'), seen, path.join(dir, 'blob'))).rejects.toMatchObject({ code: 'ESTALE' });
  });

  it('refuses a file written to since it was looked at (its copy could be torn)', async () => {
    const seen = fs.lstatSync(path.join(dir, 'file'));
    fs.appendFileSync(path.join(dir, 'file'), 'more\n');
    await expect(copySeen(path.join(dir, 'file'), seen, path.join(dir, 'blob'))).rejects.toMatchObject({ code: 'ESTALE', message: /changed while/ });
  });
});
