/** One lstat for "was anything made or removed in this folder since it was last looked at in full", trusted only once its times are settled. */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLED_MS, UnchangedFolders } from '../../../../adapter/fs/journal/unchanged-folder.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

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

  it('says gone when the folder is, and forgets it', () => {
    const folders = later();
    folders.remember(folders.look(dir));
    removeDir(dir);
    expect(folders.look(dir)).toBe('gone');
    fs.mkdirSync(dir);
    expect(typeof folders.look(dir)).toBe('object');
  });
});
