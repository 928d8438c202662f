/**
 * fs.move across filesystems (a copy, then removal): it replaces only what rename would replace,
 * so an overwrite never deletes a directory, and what it held, that a rename would have refused;
 * and a move names what is missing (the source, or the destination's folder).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GuardedPath } from '../../../adapter/contract/files.js';
import { localFileOps } from '../../../adapter/fs/local-file-ops.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';
import { makeUnwritable } from '../../helpers/unwritable.js';

const SHM = '/dev/shm';
const crossDevice = fs.existsSync(SHM) && fs.statSync(SHM).dev !== fs.statSync(os.tmpdir()).dev;
const guard = (file: string): GuardedPath => ({ path: file, confirm: () => {} });

describe.skipIf(!crossDevice)('move across filesystems', () => {
  let here: string;
  let there: string;
  beforeEach(() => {
    here = makeTempDir();
    there = fs.mkdtempSync(path.join(SHM, 'chatgpt-mcp-move-'));
  });
  afterEach(() => {
    removeDir(here);
    fs.rmSync(there, { recursive: true, force: true });
  });

  it('moves a tree and replaces a file, as a rename would', async () => {
    fs.mkdirSync(path.join(here, 'tree', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(here, 'tree', 'sub', 'f.txt'), 'f');
    await localFileOps.move(guard(path.join(here, 'tree')), guard(path.join(there, 'tree')), false);
    expect(fs.readFileSync(path.join(there, 'tree', 'sub', 'f.txt'), 'utf8')).toBe('f');
    expect(fs.existsSync(path.join(here, 'tree'))).toBe(false);
    fs.writeFileSync(path.join(here, 'new.txt'), 'new');
    fs.writeFileSync(path.join(there, 'old.txt'), 'old');
    await localFileOps.move(guard(path.join(here, 'new.txt')), guard(path.join(there, 'old.txt')), true);
    expect(fs.readFileSync(path.join(there, 'old.txt'), 'utf8')).toBe('new');
  });

  it.each([
    ['a file onto a directory', 'file', /EISDIR|is a directory/i],
    ['a directory onto a directory that is not empty', 'dir', /ENOTEMPTY|not empty/i],
  ])('refuses to replace %s, and keeps what it holds', async (_case, kind, message) => {
    if (kind === 'file') fs.writeFileSync(path.join(here, 'x'), 'x');
    else fs.mkdirSync(path.join(here, 'x'));
    fs.mkdirSync(path.join(there, 'x', '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(there, 'x', '.ssh', 'id_rsa'), 'key');
    await expect(localFileOps.move(guard(path.join(here, 'x')), guard(path.join(there, 'x')), true)).rejects.toThrow(message);
    expect(fs.readFileSync(path.join(there, 'x', '.ssh', 'id_rsa'), 'utf8')).toBe('key');
    expect(fs.existsSync(path.join(here, 'x'))).toBe(true);
    expect(fs.readdirSync(there)).toEqual(['x']);
  });

  it('a copy that fails part way leaves the destination and the source as they were, and no partial copy', async () => {
    fs.mkdirSync(path.join(here, 'tree'));
    fs.writeFileSync(path.join(here, 'tree', 'a.txt'), 'a');
    execFileSync('mkfifo', [path.join(here, 'tree', 'pipe')]);
    fs.writeFileSync(path.join(there, 'victim'), 'VICTIM');
    fs.mkdirSync(path.join(there, 'empty'));
    for (const destination of ['victim', 'empty']) {
      await expect(localFileOps.move(guard(path.join(here, 'tree')), guard(path.join(there, destination)), true)).rejects.toThrow();
    }
    expect(fs.readFileSync(path.join(there, 'victim'), 'utf8')).toBe('VICTIM');
    expect(fs.readdirSync(there).sort()).toEqual(['empty', 'victim']);
    expect(fs.readdirSync(path.join(there, 'empty'))).toEqual([]);
    expect(fs.readdirSync(path.join(here, 'tree')).sort()).toEqual(['a.txt', 'pipe']);
  });

  it('a source that cannot be removed (a parent the owner locked) takes its copy away again: both sides as they were', async (context) => {
    fs.mkdirSync(path.join(here, 'box', 'tree'), { recursive: true });
    fs.writeFileSync(path.join(here, 'box', 'tree', 'a.txt'), 'a');
    const locked = makeUnwritable(path.join(here, 'box'));
    if (typeof locked === 'string') return context.skip(locked);
    try {
      await expect(localFileOps.move(guard(path.join(here, 'box', 'tree')), guard(path.join(there, 'tree')), false)).rejects.toMatchObject({
        code: 'OS_ERROR',
      });
    } finally {
      locked.release();
    }
    expect(fs.readdirSync(there)).toEqual([]);
    expect(fs.readFileSync(path.join(here, 'box', 'tree', 'a.txt'), 'utf8')).toBe('a');
  });

  it.runIf(process.getuid?.() === 0)('an immutable source never replaces the destination it would overwrite', async () => {
    fs.writeFileSync(path.join(here, 'draft.txt'), 'model draft');
    fs.writeFileSync(path.join(there, 'report.txt'), 'the owner report, only copy');
    execFileSync('chattr', ['+i', path.join(here, 'draft.txt')]);
    try {
      await expect(localFileOps.move(guard(path.join(here, 'draft.txt')), guard(path.join(there, 'report.txt')), true)).rejects.toThrow(
        /draft\.txt cannot be removed|immutable|EPERM/,
      );
    } finally {
      execFileSync('chattr', ['-i', path.join(here, 'draft.txt')]);
    }
    expect(fs.readFileSync(path.join(there, 'report.txt'), 'utf8')).toBe('the owner report, only copy');
    expect(fs.readdirSync(there)).toEqual(['report.txt']);
    expect(fs.readFileSync(path.join(here, 'draft.txt'), 'utf8')).toBe('model draft');
  });
});

describe('move: what is missing is named', () => {
  let here: string;
  beforeEach(() => {
    here = makeTempDir();
    fs.mkdirSync(path.join(here, 'big'));
  });
  afterEach(() => removeDir(here));

  it('a destination whose folder does not exist names that folder, not the source (which is there, and stays)', async () => {
    await expect(localFileOps.move(guard(path.join(here, 'big')), guard(path.join(here, 'elsewhere', 'moved')), false)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `${path.join(here, 'elsewhere')} does not exist; create it first with fs.mkdir`,
    });
    expect(fs.existsSync(path.join(here, 'big'))).toBe(true);
    await expect(localFileOps.move(guard(path.join(here, 'gone')), guard(path.join(here, 'moved')), false)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `${path.join(here, 'gone')}: does not exist`,
    });
  });
});
