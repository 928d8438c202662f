import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removalBlock } from '../../../adapter/fs/file-flags.js';
import { nativeAddonFile } from '../../../adapter/os/native-addon.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

/** Marking a file needs root (CAP_LINUX_IMMUTABLE); reading the mark, the built addon (CI builds it). */
const runs = process.getuid?.() === 0 && (nativeAddonFile('file-flags') !== undefined || process.env.REQUIRE_NATIVE_SPAWN === '1');

let dir: string;
const marked: string[] = [];
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => {
  for (const file of marked.splice(0)) execFileSync('chattr', ['-i', '-a', file]);
  removeDir(dir);
});

function mark(flag: '+i' | '+a', file: string): void {
  execFileSync('chattr', [flag, file]);
  marked.push(file);
}

describe.runIf(runs)('removalBlock (Linux, the built addon, as root)', () => {
  it('tells immutable and append-only files and folders from plain ones', () => {
    for (const name of ['plain', 'frozen', 'log']) fs.writeFileSync(path.join(dir, name), name);
    fs.mkdirSync(path.join(dir, 'folder'));
    mark('+i', path.join(dir, 'frozen'));
    mark('+a', path.join(dir, 'log'));
    mark('+i', path.join(dir, 'folder'));
    expect(removalBlock(path.join(dir, 'plain'))).toBeNull();
    expect(removalBlock(path.join(dir, 'frozen'))).toBe('immutable (chattr +i)');
    expect(removalBlock(path.join(dir, 'log'))).toBe('append-only (chattr +a)');
    expect(removalBlock(path.join(dir, 'folder'))).toBe('immutable (chattr +i)');
  });

  it('reads a link itself, not what it names; a name in bytes; nothing for a missing path', () => {
    fs.writeFileSync(path.join(dir, 'frozen'), 'x');
    mark('+i', path.join(dir, 'frozen'));
    fs.symlinkSync(path.join(dir, 'frozen'), path.join(dir, 'link'));
    expect(removalBlock(path.join(dir, 'link'))).toBeNull();
    // A name that is not UTF-8 (chattr gets it through the shell's printf).
    const bytes = Buffer.concat([Buffer.from(`${dir}/f`), Buffer.from([0xff])]);
    fs.writeFileSync(bytes, 'y');
    const chattr = (flag: string) => execFileSync('sh', ['-c', `chattr ${flag} "$1/f$(printf '\\377')"`, 'sh', dir]);
    chattr('+i');
    try {
      expect(removalBlock(bytes)).toBe('immutable (chattr +i)');
    } finally {
      chattr('-i');
    }
    expect(removalBlock(path.join(dir, 'missing'))).toBeNull();
    expect(removalBlock(Buffer.from(`${dir}/a\0b`))).toBeNull();
  });
});
