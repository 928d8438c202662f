import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { GuardedPath } from '../../../adapter/contract/files.js';
import { writeTextFile } from '../../../adapter/fs/write-text.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const guard = (file: string, seen: string[] = []): GuardedPath => ({ path: file, confirm: (real) => void seen.push(real) });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('writeTextFile', () => {
  it('confirms the real place of the file in its opened parent, then writes atomically without leftovers', async () => {
    const file = path.join(dir, 'a.txt');
    const seen: string[] = [];
    expect(await writeTextFile(guard(file, seen), 'one', 'create')).toEqual({ bytesWritten: 3, created: true, sha256: sha('one') });
    expect(await writeTextFile(guard(file), 'two', 'overwrite')).toMatchObject({ created: false, sha256: sha('two') });
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    expect(fs.readdirSync(dir)).toEqual(['a.txt']);
    expect(seen).toEqual([file]);
  });

  it('writes nothing when the confirm refuses the directory it opened', async () => {
    const refusing: GuardedPath = {
      path: path.join(dir, 'a.txt'),
      confirm: () => {
        throw adapterError('PATH_NOT_ALLOWED', 'test', 'refused');
      },
    };
    await expect(writeTextFile(refusing, 'x', 'overwrite')).rejects.toThrow('refused');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a file with other hard links in every mode unless allowed', async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'orig');
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    for (const mode of ['overwrite', 'append'] as const) {
      await expect(writeTextFile(guard(path.join(dir, 'a.txt')), 'x', mode)).rejects.toMatchObject({
        code: 'PATH_NOT_ALLOWED',
        details: { reason: 'hard-link' },
      });
    }
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('orig');
    await writeTextFile(guard(path.join(dir, 'a.txt')), '+', 'append', { allowHardLinks: true });
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('orig+');
  });

  it('reveals the current hash on a mismatch only when asked to', async () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'now');
    const wrong = { expectedSha256: sha('before') };
    await expect(writeTextFile(guard(file), 'x', 'overwrite', { ...wrong, revealHash: true })).rejects.toThrow(sha('now'));
    const hidden = await writeTextFile(guard(file), 'x', 'overwrite', wrong).catch((error: Error) => error);
    expect(String((hidden as Error).message)).not.toContain(sha('now'));
    expect(JSON.stringify(hidden)).not.toContain(sha('now'));
    expect(await writeTextFile(guard(file), 'ok', 'overwrite', { expectedSha256: sha('now') })).toMatchObject({ sha256: sha('ok') });
  });

  it('keeps the permission bits but never setuid/setgid on overwrite', async () => {
    const file = path.join(dir, 'tool.sh');
    fs.writeFileSync(file, 'a');
    fs.chmodSync(file, 0o4750);
    await writeTextFile(guard(file), 'b', 'overwrite');
    expect(fs.statSync(file).mode & 0o7777).toBe(0o750);
  });

  it('refuses a symlink that took the file name', async () => {
    fs.writeFileSync(path.join(dir, 'elsewhere.txt'), 'keep');
    fs.symlinkSync(path.join(dir, 'elsewhere.txt'), path.join(dir, 'a.txt'));
    for (const mode of ['overwrite', 'append'] as const) {
      await expect(writeTextFile(guard(path.join(dir, 'a.txt')), 'x', mode)).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    }
    expect(fs.readFileSync(path.join(dir, 'elsewhere.txt'), 'utf8')).toBe('keep');
  });

  it('an append answers the whole file’s hash only with revealHash (without it, the file is not read for one)', async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'PIN=4821');
    expect(await writeTextFile(guard(path.join(dir, 'a.txt')), '', 'append')).toMatchObject({ sha256: sha('PIN=4821') });
    expect(await writeTextFile(guard(path.join(dir, 'a.txt')), '', 'append', { revealHash: false })).toEqual({ bytesWritten: 0, created: false });
  });

  it.skipIf(process.platform === 'win32')('an append to a FIFO in the file’s place fails at once instead of waiting for a reader', async () => {
    execFileSync('mkfifo', [path.join(dir, 'a.txt')]);
    const started = Date.now();
    await expect(writeTextFile(guard(path.join(dir, 'a.txt')), 'x', 'append')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is not a regular file'),
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
