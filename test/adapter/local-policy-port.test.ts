/**
 * The local policy port's folder listings with a limit: a folder holding more names than the
 * limit is not read whole (linked-patterns.ts looks through folders for another case of a name,
 * sandbox-repos.ts for repositories, and a command could fill one with a million names to slow
 * every check), and the start of a small file (a .git file's line) read without waiting on a FIFO.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPort } from '../helpers/adapter.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir('names-');
  for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
});
afterAll(() => removeDir(dir));

describe('listNames', () => {
  it('lists a folder whole, or up to a limit: past it, nothing', async () => {
    const port = localPort();
    expect((await port.listNames(dir))?.sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect((await port.listNames(dir, 5))?.sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect(await port.listNames(dir, 4)).toBeNull();
    expect(await port.listNames(path.join(dir, 'missing'), 4)).toBeNull();
  });
});

describe('listFolders', () => {
  it('names the folders, not files or links to folders, among the first `limit` names, and how many it read', async () => {
    const top = makeTempDir('folders-');
    try {
      for (const name of ['a', 'b', '.git']) fs.mkdirSync(path.join(top, name));
      fs.writeFileSync(path.join(top, 'file'), '');
      fs.symlinkSync(path.join(top, 'a'), path.join(top, 'link'));
      const port = localPort();
      expect(await port.listFolders(top, 100)).toEqual({ folders: expect.arrayContaining(['a', 'b', '.git']), read: 5, gitFile: false });
      expect((await port.listFolders(top, 100))!.folders).toHaveLength(3);
      const some = (await port.listFolders(top, 2))!;
      expect(some.read).toBe(2);
      expect(some.folders.length).toBeLessThanOrEqual(2);
      expect(await port.listFolders(path.join(top, 'file'), 10)).toBeNull();
      expect(await port.listFolders(path.join(top, 'missing'), 10)).toBeNull();
      // A worktree's .git is a file; a .git link to one is not.
      fs.writeFileSync(path.join(top, 'a', '.git'), 'gitdir: /x\n');
      expect((await port.listFolders(path.join(top, 'a'), 10))!.gitFile).toBe(true);
      fs.symlinkSync(path.join(top, 'a', '.git'), path.join(top, 'b', '.git'));
      expect((await port.listFolders(path.join(top, 'b'), 10))!.gitFile).toBe(false);
    } finally {
      removeDir(top);
    }
  });
});

describe('readStart', () => {
  it('reads the start of a regular file, through a link too; not a folder, a device or a FIFO (without waiting on it)', async () => {
    const top = makeTempDir('start-');
    try {
      fs.writeFileSync(path.join(top, 'file'), 'gitdir: ../x\nmore');
      fs.symlinkSync(path.join(top, 'file'), path.join(top, 'link'));
      expect(spawnSync('mkfifo', [path.join(top, 'fifo')]).status).toBe(0);
      const port = localPort();
      expect(await port.readStart(path.join(top, 'file'), 100)).toBe('gitdir: ../x\nmore');
      expect(await port.readStart(path.join(top, 'file'), 6)).toBe('gitdir');
      expect(await port.readStart(path.join(top, 'link'), 100)).toBe('gitdir: ../x\nmore');
      fs.symlinkSync(path.join(top, 'fifo'), path.join(top, 'to-fifo'));
      expect(await port.readStart(path.join(top, 'to-fifo'), 100)).toBeNull();
      expect(await port.readStart('/dev/zero', 100)).toBeNull();
      expect(await port.readStart(top, 100)).toBeNull();
      expect(await port.readStart(path.join(top, 'fifo'), 100)).toBeNull();
      expect(await port.readStart(path.join(top, 'missing'), 100)).toBeNull();
    } finally {
      removeDir(top);
    }
  });
});
