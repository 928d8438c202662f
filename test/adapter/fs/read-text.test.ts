import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../../adapter/errors.js';
import type { GuardedPath } from '../../../adapter/fs/file-ops.js';
import { readTextFile } from '../../../adapter/fs/read-text.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const guard = (file: string, seen: string[] = []): GuardedPath => ({ path: file, confirm: (real) => void seen.push(real) });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('readTextFile', () => {
  it('confirms the object it opened and hashes the whole file when it read all of it', async () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'hello');
    const seen: string[] = [];
    expect(await readTextFile(guard(file, seen), { maxBytes: 100 })).toEqual({
      content: 'hello',
      bytes: 5,
      totalBytes: 5,
      truncated: false,
      sha256: sha('hello'),
      totalLines: 1,
    });
    expect(seen).toEqual([file]);
  });

  it('confirms where a symlinked path really leads, so the policy can refuse it', async () => {
    fs.mkdirSync(path.join(dir, 'real'));
    fs.writeFileSync(path.join(dir, 'real', 'f.txt'), 'x');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'via'));
    const refusing: GuardedPath = {
      path: path.join(dir, 'via', 'f.txt'),
      confirm: (real) => {
        throw adapterError('PATH_NOT_ALLOWED', 'test', `refused ${real}`);
      },
    };
    await expect(readTextFile(refusing, { maxBytes: 10 })).rejects.toThrow(`refused ${path.join(dir, 'real', 'f.txt')}`);
  });

  it('does not follow a symlink as the last component', async () => {
    fs.writeFileSync(path.join(dir, 'target.txt'), 'secret');
    fs.symlinkSync(path.join(dir, 'target.txt'), path.join(dir, 'link.txt'));
    await expect(readTextFile(guard(path.join(dir, 'link.txt')), { maxBytes: 10 })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
  });

  it('stops at maxBytes without a hash, and reports the size', async () => {
    const file = path.join(dir, 'big.txt');
    fs.writeFileSync(file, 'x'.repeat(10_000));
    const read = await readTextFile(guard(file), { maxBytes: 16 });
    expect(read).toEqual({ content: 'x'.repeat(16), bytes: 16, totalBytes: 10_000, truncated: true });
  });

  it('stops when the request is cancelled', async () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'hello');
    const controller = new AbortController();
    controller.abort();
    await expect(readTextFile(guard(file), { maxBytes: 100, signal: controller.signal })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });

  it.skipIf(process.platform === 'win32')('does not hang on a FIFO', async () => {
    const fifo = path.join(dir, 'pipe');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [fifo]);
    await expect(readTextFile(guard(fifo), { maxBytes: 10 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
