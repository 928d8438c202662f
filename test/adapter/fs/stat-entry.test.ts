import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { GuardedPath } from '../../../adapter/contract/files.js';
import { statEntry } from '../../../adapter/fs/stat-entry.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const guard = (file: string, seen: string[] = []): GuardedPath => ({ path: file, confirm: (real) => void seen.push(real) });

describe('statEntry', () => {
  it('reports a file’s type, size, permission bits, mtime and links, and its sha256 only on request', async () => {
    const file = path.join(dir, 'f.txt');
    fs.writeFileSync(file, 'hello');
    fs.chmodSync(file, 0o640);
    fs.utimesSync(file, new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
    const seen: string[] = [];
    expect(await statEntry(guard(file, seen))).toEqual({ type: 'file', size: 5, mode: '0640', mtime: '2026-01-02T03:04:05.000Z', links: 1 });
    expect(seen).toEqual([file]);
    expect(await statEntry(guard(file), { sha256: true })).toMatchObject({ sha256: createHash('sha256').update('hello').digest('hex') });
  });

  it('reports a symlink as a symlink (its own facts, never its target’s), and no hash for it', async () => {
    const target = path.join(dir, 'big.txt');
    fs.writeFileSync(target, 'x'.repeat(1000));
    fs.symlinkSync(target, path.join(dir, 'link'));
    const stat = await statEntry(guard(path.join(dir, 'link')), { sha256: true });
    expect(stat.type).toBe('symlink');
    expect(stat.size).toBe(target.length);
    expect(stat).not.toHaveProperty('sha256');
  });

  it('reports directories, special bits and hard links', async () => {
    fs.mkdirSync(path.join(dir, 'd'));
    expect(await statEntry(guard(path.join(dir, 'd')), { sha256: true })).toMatchObject({ type: 'directory' });
    const file = path.join(dir, 'a');
    fs.writeFileSync(file, '');
    fs.linkSync(file, path.join(dir, 'b'));
    fs.chmodSync(file, 0o4755);
    expect(await statEntry(guard(file))).toMatchObject({ links: 2, mode: '04755' });
  });

  it('is NOT_FOUND for a missing entry, and refused when the confirm refuses its real place', async () => {
    await expect(statEntry(guard(path.join(dir, 'none')))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    fs.writeFileSync(path.join(dir, 'f'), '');
    const refusing: GuardedPath = {
      path: path.join(dir, 'f'),
      confirm: () => {
        throw adapterError('PATH_NOT_ALLOWED', 'test', 'refused');
      },
    };
    await expect(statEntry(refusing)).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
  });

  it('stops hashing when the request is cancelled', async () => {
    fs.writeFileSync(path.join(dir, 'f'), 'data');
    const controller = new AbortController();
    controller.abort();
    await expect(statEntry(guard(path.join(dir, 'f')), { sha256: true, signal: controller.signal })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });
});
