import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirHandle } from '../../../adapter/fs/dir-handle.js';
import { HANDLE_PATHS } from '../../../adapter/fs/opened-path.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
  fs.mkdirSync(path.join(dir, 'd'));
  fs.mkdirSync(path.join(dir, 'outside'));
});
afterEach(() => removeDir(dir));

describe('DirHandle', () => {
  it('passes the real place of what it opened to confirm, and opens nothing the confirm refuses', async () => {
    const seen: string[] = [];
    const handle = await DirHandle.open(path.join(dir, 'd'), (real) => void seen.push(real), 'test');
    await handle.close();
    expect(seen).toEqual([path.join(dir, 'd')]);
    await expect(
      DirHandle.open(
        path.join(dir, 'd'),
        () => {
          throw new Error('refused');
        },
        'test',
      ),
    ).rejects.toThrow('refused');
  });

  it('refuses a symlink in place of the directory', async () => {
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'link'));
    await expect(DirHandle.open(path.join(dir, 'link'), () => {}, 'test')).rejects.toMatchObject({ code: expect.stringMatching(/ELOOP|ENOTDIR/) });
  });

  it('confirms the directory a symlinked parent really leads to', async () => {
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'via'));
    fs.mkdirSync(path.join(dir, 'outside', 'sub'));
    const seen: string[] = [];
    const handle = await DirHandle.open(path.join(dir, 'via', 'sub'), (real) => void seen.push(real), 'test');
    await handle.close();
    expect(seen).toEqual([path.join(dir, 'outside', 'sub')]);
  });

  it.runIf(HANDLE_PATHS)('names entries through the opened directory, wherever its path now leads (Linux)', async () => {
    const handle = await DirHandle.open(path.join(dir, 'd'), () => {}, 'test');
    try {
      // Another process swaps the checked path for a symlink to outside after the check.
      fs.renameSync(path.join(dir, 'd'), path.join(dir, 'd-moved'));
      fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'd'));
      fs.writeFileSync(handle.entry('new.txt'), 'x');
      expect(fs.readdirSync(path.join(dir, 'outside'))).toEqual([]);
      expect(fs.readdirSync(path.join(dir, 'd-moved'))).toEqual(['new.txt']);
      expect(fs.readdirSync(handle.self)).toEqual(['new.txt']);
    } finally {
      await handle.close();
    }
  });

  it('opens a child directory but never a symlink in its place', async () => {
    fs.mkdirSync(path.join(dir, 'd', 'child'));
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'd', 'trap'));
    const handle = await DirHandle.open(path.join(dir, 'd'), () => {}, 'test');
    try {
      const child = await handle.child('child');
      expect(child.real).toBe(path.join(dir, 'd', 'child'));
      await child.close();
      await expect(handle.child('trap')).rejects.toMatchObject({ code: expect.stringMatching(/ELOOP|ENOTDIR/) });
    } finally {
      await handle.close();
    }
  });

  it.each(['', '.', '..', 'a/b', 'nul\0byte'])('refuses %j as an entry name', async (name) => {
    const handle = await DirHandle.open(path.join(dir, 'd'), () => {}, 'test');
    try {
      expect(() => handle.entry(name)).toThrow(/not a single directory entry name/);
    } finally {
      await handle.close();
    }
  });
});
