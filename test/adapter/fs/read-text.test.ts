import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { GuardedPath } from '../../../adapter/contract/files.js';
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

  it('counts the lines of a whole file: a last line without a newline counts, CRLF and multi-byte text too', async () => {
    const lines = async (text: string) => {
      fs.writeFileSync(path.join(dir, 'l.txt'), text);
      return (await readTextFile(guard(path.join(dir, 'l.txt')), { maxBytes: 100 })).totalLines;
    };
    expect(await lines('')).toBe(0);
    expect(await lines('\n')).toBe(1);
    expect(await lines('a\nb')).toBe(2);
    expect(await lines('a\nb\n')).toBe(2);
    expect(await lines('é\r\n漢字\r\n\n😀')).toBe(4);
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

describe('readTextFile with a line range', () => {
  const text = 'one\ntwo\nthree\nfour\n';
  let file: string;
  beforeEach(() => {
    file = path.join(dir, 'lines.txt');
    fs.writeFileSync(file, text);
  });
  const range = (startLine: number | undefined, endLine: number | undefined, maxBytes = 1000, at = file) =>
    readTextFile(guard(at), { maxBytes, ...(startLine === undefined ? {} : { startLine }), ...(endLine === undefined ? {} : { endLine }) });

  it('returns the first, a middle and the last lines with the total line count and the whole file’s sha256', async () => {
    const whole = { totalBytes: text.length, truncated: false, totalLines: 4, sha256: sha(text) };
    expect(await range(1, 1)).toEqual({ content: 'one\n', bytes: 4, startLine: 1, endLine: 1, ...whole });
    expect(await range(2, 3)).toEqual({ content: 'two\nthree\n', bytes: 10, startLine: 2, endLine: 3, ...whole });
    expect(await range(4, 4)).toMatchObject({ content: 'four\n', startLine: 4, endLine: 4 });
    expect(await range(3, undefined)).toMatchObject({ content: 'three\nfour\n', startLine: 3, endLine: 4 });
    expect(await range(undefined, 2)).toMatchObject({ content: 'one\ntwo\n', startLine: 1, endLine: 2 });
  });

  it('an endLine past the end stops at the last line; a startLine past the end is refused with the count', async () => {
    expect(await range(3, 99)).toMatchObject({ content: 'three\nfour\n', endLine: 4, totalLines: 4 });
    await expect(range(5, 6)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('has 4 lines; startLine 5 is past the end') });
    await expect(range(3, 2)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'endLine (2) is before startLine (3)' });
  });

  it('counts a last line without a newline, and an empty file as 0 lines', async () => {
    fs.writeFileSync(file, 'a\nb');
    expect(await range(2, 2)).toMatchObject({ content: 'b', startLine: 2, endLine: 2, totalLines: 2 });
    expect(await range(1, undefined)).toMatchObject({ content: 'a\nb', endLine: 2 });
    fs.writeFileSync(file, '');
    expect(await range(1, undefined)).toMatchObject({ content: '', endLine: 0, totalLines: 0, sha256: sha('') });
  });

  it('cuts at maxBytes without splitting a character; endLine is the last whole line returned', async () => {
    fs.writeFileSync(file, 'aaa\nééé\nccc\n');
    const cut = await range(1, 3, 7);
    expect(cut).toMatchObject({ content: 'aaa\né', bytes: 6, truncated: true, startLine: 1, endLine: 1, totalLines: 3 });
    const exact = await range(1, 3, 4);
    expect(exact).toMatchObject({ content: 'aaa\n', truncated: true, endLine: 1 });
  });

  it('reads lines across read chunks (a line longer than 256 KiB)', async () => {
    const long = 'x'.repeat(300 * 1024);
    fs.writeFileSync(file, `first\n${long}\nlast\n`);
    const read = await range(2, 3, 400 * 1024);
    expect(read.content).toBe(`${long}\nlast\n`);
    expect(read).toMatchObject({ startLine: 2, endLine: 3, totalLines: 3, truncated: false });
  });

  it('refuses a binary file even when the range is before the NUL byte', async () => {
    fs.writeFileSync(file, Buffer.concat([Buffer.from('text\n'), Buffer.from([0, 1, 2])]));
    await expect(range(1, 1)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('binary') });
  });

  it('keeps CRLF line endings in what it returns', async () => {
    fs.writeFileSync(file, 'a\r\nb\r\n');
    expect(await range(2, 2)).toMatchObject({ content: 'b\r\n', totalLines: 2 });
  });
});
