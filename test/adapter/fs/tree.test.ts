import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirHandle } from '../../../adapter/fs/dir-handle.js';
import { confirmTree, copyEntry, copyFileContent, removeIfEmpty, removeTreeEntry, removeWhole } from '../../../adapter/fs/tree.js';
import { nativeAddonFile } from '../../../adapter/os/native-addon.js';
import { makeUnwritable } from '../../helpers/unwritable.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

/** Root may mark files immutable; the addon reads the mark (Linux, built; CI builds it). */
const ROOT = process.getuid?.() === 0;
const FLAGS_READ = nativeAddonFile('file-flags') !== undefined || process.env.REQUIRE_NATIVE_SPAWN === '1';

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

describe('removeTreeEntry of a tree this process made (own)', () => {
  // As an ordinary user (root ignores permission bits): a folder it made read-only keeps what it holds, unless made writable first.
  it.runIf(ROOT)('removes folders it made read-only, where the plain walk stops', () => {
    const tree = new URL('../../../out/adapter/fs/tree.js', import.meta.url).href;
    const handle = new URL('../../../out/adapter/fs/dir-handle.js', import.meta.url).href;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-own-'));
    fs.chmodSync(work, 0o755);
    fs.chownSync(work, 65534, 65534);
    const script = `
      import fs from 'node:fs';
      const { removeTreeEntry } = await import(${JSON.stringify(tree)});
      const { DirHandle } = await import(${JSON.stringify(handle)});
      const results = [];
      for (const own of [false, true]) {
        fs.mkdirSync(process.argv[1] + '/t/locked', { recursive: true });
        fs.writeFileSync(process.argv[1] + '/t/locked/f', 'f');
        fs.chmodSync(process.argv[1] + '/t/locked', 0o555);
        const dir = await DirHandle.open(process.argv[1], () => {}, 'test');
        results.push(await removeTreeEntry(dir, 't', own).then(() => 'removed', (e) => e.code));
        await dir.close();
      }
      console.log(JSON.stringify(results));
    `;
    try {
      const out = execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--input-type=module', '-e', script, work], {
        encoding: 'utf8',
      });
      expect(JSON.parse(out)).toEqual(['EACCES', 'removed']);
      expect(fs.readdirSync(work)).toEqual([]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('removeIfEmpty', () => {
  it('removes a folder holding only empty folders', async () => {
    fs.mkdirSync(path.join(dir, 'hollow', 'x', 'y'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'hollow', 'z'));
    expect(await inDir((handle) => removeIfEmpty(handle, 'hollow'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'hollow'))).toBe(false);
  });

  it('keeps a folder holding a file or a link (not followed), taking only its empty folders', async () => {
    fs.mkdirSync(path.join(dir, 'tree', 'empty'));
    expect(await inDir((handle) => removeIfEmpty(handle, 'tree'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'tree', 'a', 'b', 'f.txt'), 'utf8')).toBe('f');
    expect(fs.readlinkSync(path.join(dir, 'tree', 'a', 'link'))).toBe(path.join(dir, 'outside'));
    expect(fs.existsSync(path.join(dir, 'tree', 'empty'))).toBe(false);
    fs.rmSync(path.join(dir, 'tree', 'a', 'b', 'f.txt'));
    expect(await inDir((handle) => removeIfEmpty(handle, 'tree'))).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'outside'))).toEqual(['keep.txt']);
  });
});

describe('removeWhole', () => {
  it('takes nothing from a folder whose parent it may not change (the old walk emptied it, then failed)', async (context) => {
    const locked = makeUnwritable(dir);
    if (typeof locked === 'string') return context.skip(locked);
    try {
      const error = await inDir((handle) => removeWhole(handle, 'tree')).catch((e: NodeJS.ErrnoException) => e);
      expect(error).toMatchObject({ code: expect.stringMatching(/^(EACCES|EPERM)$/) });
    } finally {
      locked.release();
    }
    expect(fs.readFileSync(path.join(dir, 'tree', 'a', 'b', 'f.txt'), 'utf8')).toBe('f');
    expect(fs.readdirSync(dir).sort()).toEqual(['outside', 'tree']);
  });

  it('takes nothing when a folder inside may not be emptied, and names it', async (context) => {
    const locked = makeUnwritable(path.join(dir, 'tree', 'a', 'b'));
    if (typeof locked === 'string') return context.skip(locked);
    fs.writeFileSync(path.join(dir, 'tree', 'first.txt'), 'walked first');
    let error: Error | undefined;
    try {
      error = (await inDir((handle) => removeWhole(handle, 'tree')).catch((e: Error) => e)) || undefined;
    } finally {
      locked.release();
    }
    // Found before anything goes: unwritable (chmod) as an ordinary user, immutable as root (chattr
    // +i; access() says so). Without the addon only the removal finds an immutable file inside.
    expect(error?.message).toMatch(/tree/);
    expect(fs.readFileSync(path.join(dir, 'tree', 'a', 'b', 'f.txt'), 'utf8')).toBe('f');
    expect(fs.readdirSync(dir).sort()).toEqual(['outside', 'tree']);
    if (process.getuid?.() !== 0 || FLAGS_READ) expect(fs.readFileSync(path.join(dir, 'tree', 'first.txt'), 'utf8')).toBe('walked first');
    if (process.getuid?.() === 0 && FLAGS_READ) expect(error?.message).toMatch(/tree\/a\/b is /);
  });

  it.runIf(ROOT && FLAGS_READ)('takes nothing when a file inside is immutable or append-only, and names it', async () => {
    fs.writeFileSync(path.join(dir, 'tree', 'first.txt'), 'walked first');
    for (const [flag, words] of [
      ['+i', 'immutable (chattr +i)'],
      ['+a', 'append-only (chattr +a)'],
    ] as const) {
      const file = path.join(dir, 'tree', 'a', 'b', 'f.txt');
      execFileSync('chattr', [flag, file]);
      try {
        const error = await inDir((handle) => removeWhole(handle, 'tree')).catch((e: NodeJS.ErrnoException) => e);
        expect(error).toMatchObject({ code: 'EPERM', message: `${file} is ${words}, so it cannot be removed` });
      } finally {
        execFileSync('chattr', [flag.replace('+', '-'), file]);
      }
      expect(fs.readdirSync(path.join(dir, 'tree')).sort()).toEqual(['a', 'first.txt']);
    }
  });

  it('removes a tree, and a link without following it', async () => {
    await inDir((handle) => removeWhole(handle, 'tree'));
    expect(fs.readdirSync(dir)).toEqual(['outside']);
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'link'));
    await inDir((handle) => removeWhole(handle, 'link'));
    expect(fs.readdirSync(path.join(dir, 'outside'))).toEqual(['keep.txt']);
  });
});

describe('copyEntry', () => {
  it('copies files, directories and links as links', async () => {
    await inDir((handle) => copyEntry(handle, 'tree', handle, 'copy'));
    expect(fs.readFileSync(path.join(dir, 'copy', 'a', 'b', 'f.txt'), 'utf8')).toBe('f');
    expect(fs.readlinkSync(path.join(dir, 'copy', 'a', 'link'))).toBe(path.join(dir, 'outside'));
    expect(fs.readdirSync(path.join(dir, 'outside'))).toEqual(['keep.txt']);
  });

  it('keeps a file’s mode (without setuid) and times', async () => {
    const file = path.join(dir, 'tree', 'a', 'b', 'f.txt');
    fs.chmodSync(file, 0o4751);
    fs.utimesSync(file, new Date('2020-01-02T03:04:05Z'), new Date('2021-01-02T03:04:05Z'));
    await inDir((handle) => copyEntry(handle, 'tree', handle, 'copy'));
    const copied = fs.statSync(path.join(dir, 'copy', 'a', 'b', 'f.txt'));
    expect(copied.mode & 0o7777).toBe(0o751);
    expect(copied.mtime.toISOString()).toBe('2021-01-02T03:04:05.000Z');
  });
});

describe('names that are not UTF-8', () => {
  const latin1 = (folder: string, name: number[]) => Buffer.concat([Buffer.from(`${folder}/`), Buffer.from(name)]);

  beforeEach(() => {
    fs.writeFileSync(latin1(path.join(dir, 'tree', 'a'), [0x63, 0x61, 0x66, 0xe9]), 'latin-1 name');
    fs.mkdirSync(latin1(path.join(dir, 'tree'), [0xff]));
    fs.writeFileSync(latin1(path.join(dir, 'tree'), [0xff, 0x2f, 0x78]), 'inside');
  });

  it('are removed with their folder', async () => {
    const seen: string[] = [];
    await inDir(async (handle) => {
      await confirmTree(handle, 'tree', (real) => seen.push(path.relative(dir, real)));
      await removeTreeEntry(handle, 'tree');
    });
    expect(fs.existsSync(path.join(dir, 'tree'))).toBe(false);
    expect(seen).toEqual(expect.arrayContaining(['tree/a/caf\ufffd', 'tree/\ufffd', 'tree/\ufffd/x']));
  });

  it('are copied byte for byte', async () => {
    await inDir((handle) => copyEntry(handle, 'tree', handle, 'copy'));
    expect(fs.readFileSync(latin1(path.join(dir, 'copy', 'a'), [0x63, 0x61, 0x66, 0xe9]), 'utf8')).toBe('latin-1 name');
    expect(fs.readFileSync(latin1(path.join(dir, 'copy'), [0xff, 0x2f, 0x78]), 'utf8')).toBe('inside');
  });
});

describe('copyFileContent', () => {
  // What another program can put in the file's place between copyEntry's lstat and the open.
  it('refuses a symlink in the source’s place instead of copying what it names', async () => {
    fs.symlinkSync(path.join(dir, 'outside', 'keep.txt'), path.join(dir, 'swapped'));
    await expect(copyFileContent(path.join(dir, 'swapped'), path.join(dir, 'copied'), 'swapped')).rejects.toMatchObject({ code: 'ELOOP' });
    expect(fs.existsSync(path.join(dir, 'copied'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO at once (no writer: the open would otherwise wait forever)', async () => {
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    await expect(copyFileContent(path.join(dir, 'fifo'), path.join(dir, 'copied'), 'fifo')).rejects.toMatchObject({ code: 'EINVAL' });
    expect(fs.existsSync(path.join(dir, 'copied'))).toBe(false);
  });

  it('never replaces a file or follows a link at the destination', async () => {
    fs.symlinkSync(path.join(dir, 'outside', 'new.txt'), path.join(dir, 'target-link'));
    const source = path.join(dir, 'tree', 'a', 'b', 'f.txt');
    await expect(copyFileContent(source, path.join(dir, 'target-link'), 'f.txt')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.existsSync(path.join(dir, 'outside', 'new.txt'))).toBe(false);
  });
});
