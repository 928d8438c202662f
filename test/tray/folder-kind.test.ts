import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderKind } from '../../main/tray/folder-kind.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

describe('what is at a shared folder’s path', () => {
  it('is a folder, something else, or nothing (a relative path counts as nothing)', () => {
    fs.writeFileSync(path.join(dir, 'file.txt'), '');
    expect(folderKind(dir)).toBe('directory');
    expect(folderKind(path.join(dir, 'file.txt'))).toBe('other');
    expect(folderKind(path.join(dir, 'gone'))).toBe('missing');
    expect(folderKind('relative')).toBe('missing');
  });
});
