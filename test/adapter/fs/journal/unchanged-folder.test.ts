/** One lstat for "was anything made or removed in this folder since it was last looked at in full", trusted only once its times are settled. */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTLED_MS, UnchangedFolders } from '../../../../adapter/fs/journal/unchanged-folder.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => {
  vi.restoreAllMocks();
  removeDir(dir);
});

/** Folders judged as if SETTLED_MS had passed since anything last changed (the real clock's tick still separates the changes below). */
const later = () => new UnchangedFolders(() => Date.now() + SETTLED_MS + 1000);

describe('UnchangedFolders', () => {
  it('answers unchanged while nothing is made or removed in a settled folder, and not once something is', async () => {
    const folders = later();
    const first = folders.look(dir);
    expect(typeof first).toBe('object');
    folders.remember(first);
    expect(folders.look(dir)).toBe('unchanged');
    // Writing into a file already there changes nothing of the folder.
    fs.writeFileSync(path.join(dir, 'records.jsonl'), 'one\n');
    folders.remember(folders.look(dir));
    await sleep(30);
    fs.appendFileSync(path.join(dir, 'records.jsonl'), 'two\n');
    expect(folders.look(dir)).toBe('unchanged');
    // A name made (an undo's lock), then one removed.
    fs.writeFileSync(path.join(dir, 'undoing'), '{}');
    const made = folders.look(dir);
    expect(typeof made).toBe('object');
    folders.remember(made);
    await sleep(30);
    fs.rmSync(path.join(dir, 'undoing'));
    expect(typeof folders.look(dir)).toBe('object');
  });

  it('does not trust a folder whose times were younger than SETTLED_MS when it was looked at', () => {
    const folders = new UnchangedFolders();
    fs.writeFileSync(path.join(dir, 'meta.json'), '{}');
    const look = folders.look(dir);
    folders.remember(look);
    expect(typeof folders.look(dir)).toBe('object');
  });

  it('never trusts times in whole seconds: a change in the same second would keep them', () => {
    const real = fs.statSync(dir);
    const stamped = (ms: number) => Object.assign(Object.create(Object.getPrototypeOf(real)) as fs.Stats, real, { mtimeMs: ms, ctimeMs: ms });
    const folders = later();
    vi.spyOn(fs, 'statSync').mockReturnValue(stamped(1_700_000_000_000));
    folders.remember(folders.look(dir));
    expect(typeof folders.look(dir)).toBe('object');
    // The same, a fraction of a millisecond later: trusted.
    vi.spyOn(fs, 'statSync').mockReturnValue(stamped(1_700_000_000_000.5));
    folders.remember(folders.look(dir));
    expect(folders.look(dir)).toBe('unchanged');
  });

  it('forgets all it remembered once the wall clock is set back or forward', () => {
    let step = 0;
    const folders = new UnchangedFolders(() => Date.now() + SETTLED_MS + 1000 + step);
    folders.remember(folders.look(dir));
    expect(folders.look(dir)).toBe('unchanged');
    step = -5000;
    expect(typeof folders.look(dir)).toBe('object');
  });

  it('looks at the folder a link names, not the link', async () => {
    const link = path.join(makeTempDir(), 'group');
    fs.symlinkSync(dir, link);
    const folders = later();
    folders.remember(folders.look(link));
    expect(folders.look(link)).toBe('unchanged');
    await sleep(30);
    fs.writeFileSync(path.join(dir, 'undoing'), '{}');
    expect(typeof folders.look(link)).toBe('object');
    removeDir(path.dirname(link));
  });

  it('says gone when the folder is, and forgets it', () => {
    const folders = later();
    folders.remember(folders.look(dir));
    removeDir(dir);
    expect(folders.look(dir)).toBe('gone');
    fs.mkdirSync(dir);
    expect(typeof folders.look(dir)).toBe('object');
  });
});
