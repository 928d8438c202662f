import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirHandle } from '../../../adapter/fs/dir-handle.js';
import { copyEntry, removeTreeEntry } from '../../../adapter/fs/tree.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
  fs.mkdirSync(path.join(dir, 'tree', 'a', 'b'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'tree', 'a', 'b', 'f.txt'), 'f');
  fs.mkdirSync(path.join(dir, 'outside'));
  fs.writeFileSync(path.join(dir, 'outside', 'keep.txt'), 'keep');
  fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'tree', 'a', 'link'));
});
afterEach(() => removeDir(dir));

async function inDir<T>(use: (handle: DirHandle) => Promise<T>): Promise<T> {
  const handle = await DirHandle.open(dir, () => {}, 'test');
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

describe('removeTreeEntry', () => {
  it('removes a tree depth-first, removing links without following them', async () => {
    await inDir((handle) => removeTreeEntry(handle, 'tree'));
    expect(fs.existsSync(path.join(dir, 'tree'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'outside', 'keep.txt'), 'utf8')).toBe('keep');
  });
});

describe('copyEntry', () => {
  it('copies files, directories and links as links', async () => {
    await inDir((handle) => copyEntry(handle, 'tree', handle, 'copy'));
    expect(fs.readFileSync(path.join(dir, 'copy', 'a', 'b', 'f.txt'), 'utf8')).toBe('f');
    expect(fs.readlinkSync(path.join(dir, 'copy', 'a', 'link'))).toBe(path.join(dir, 'outside'));
    expect(fs.readdirSync(path.join(dir, 'outside'))).toEqual(['keep.txt']);
  });
});
