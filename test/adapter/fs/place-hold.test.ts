/** A hold on a real folder: where it is after renames of it and of folders above it, and nothing once it is removed. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdPlace } from '../../../adapter/fs/place-hold.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

const dir = fs.realpathSync(makeTempDir());
afterAll(() => removeDir(dir));

describe.runIf(process.platform === 'linux')('holdPlace', () => {
  it('says where a folder is after it, and a folder above it, were renamed', () => {
    const git = path.join(dir, 'a', 'proj', '.git');
    fs.mkdirSync(git, { recursive: true });
    const hold = holdPlace(git, 'linux')!;
    expect(hold.where()).toBe(git);
    fs.renameSync(path.join(dir, 'a'), path.join(dir, 't'));
    expect(hold.where()).toBe(path.join(dir, 't', 'proj', '.git'));
    fs.mkdirSync(path.join(dir, 'x', 'y'), { recursive: true });
    fs.renameSync(path.join(dir, 't'), path.join(dir, 'x', 'y', 'a'));
    expect(hold.where()).toBe(path.join(dir, 'x', 'y', 'a', 'proj', '.git'));
    hold.release();
    expect(hold.where()).toBeNull();
  });

  it('says nothing once what it holds was removed, even where a name "(deleted)" stands', () => {
    const git = path.join(dir, 'gone', '.git');
    fs.mkdirSync(git, { recursive: true });
    fs.mkdirSync(`${git} (deleted)`);
    const hold = holdPlace(git, 'linux')!;
    fs.rmdirSync(git);
    expect(hold.where()).toBeNull();
    hold.release();
  });

  it('takes no hold where nothing is, nor elsewhere than Linux; a link is held as the link', () => {
    expect(holdPlace(path.join(dir, 'missing'), 'linux')).toBeNull();
    expect(holdPlace(dir, 'darwin')).toBeNull();
    fs.symlinkSync(path.join(dir, 'a-target'), path.join(dir, 'link'));
    const hold = holdPlace(path.join(dir, 'link'), 'linux')!;
    expect(hold.where()).toBe(path.join(dir, 'link'));
    hold.release();
  });
});
