import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTextFile } from '../../../adapter/fs/edit-text.js';
import type { GuardedPath } from '../../../adapter/contract/files.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const guard = (file: string, seen: string[] = []): GuardedPath => ({ path: file, confirm: (real) => void seen.push(real) });
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const options = { maxBytes: 1024, revealHash: true };

function file(name: string, content: string | Buffer): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, content);
  return at;
}

describe('editTextFile', () => {
  it('writes the edited text atomically and returns its sha256, the count and a unified diff', async () => {
    const at = file('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await editTextFile(guard(at), [{ oldText: 'const b = 2;', newText: 'const b = 20;' }], options);
    const after = 'const a = 1;\nconst b = 20;\nconst c = 3;\n';
    expect(fs.readFileSync(at, 'utf8')).toBe(after);
    expect(result).toMatchObject({ sha256: sha(after), replacements: 1, bytesWritten: Buffer.byteLength(after) });
    expect(result.diff).toBe(`--- ${at}\n+++ ${at}\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;`);
    expect(fs.readdirSync(dir)).toEqual(['a.ts']); // no temp file left
  });

  it('writes nothing when any edit fails', async () => {
    const at = file('a.txt', 'one\ntwo\none\n');
    await expect(
      editTextFile(
        guard(at),
        [
          { oldText: 'two', newText: '2' },
          { oldText: 'one', newText: '1' },
        ],
        options,
      ),
    ).rejects.toMatchObject({
      code: 'AMBIGUOUS_MATCH',
      details: { edit: 2, lines: [1, 3] },
    });
    await expect(editTextFile(guard(at), [{ oldText: 'three', newText: '3' }], options)).rejects.toMatchObject({ code: 'NO_MATCH' });
    expect(fs.readFileSync(at, 'utf8')).toBe('one\ntwo\none\n');
  });

  it('expectedSha256: edits when it matches (any case), refuses with the current hash when it does not', async () => {
    const at = file('a.txt', 'v1\n');
    await expect(editTextFile(guard(at), [{ oldText: 'v1', newText: 'v2' }], { ...options, expectedSha256: sha('other') })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining(`sha256 is ${sha('v1\n')}`),
    });
    expect(fs.readFileSync(at, 'utf8')).toBe('v1\n');
    const done = await editTextFile(guard(at), [{ oldText: 'v1', newText: 'v2' }], { ...options, expectedSha256: sha('v1\n').toUpperCase() });
    expect(done.sha256).toBe(sha('v2\n'));
  });

  it('without read access, a wrong expectedSha256 does not reveal the current hash', async () => {
    const at = file('a.txt', 'v1\n');
    const error = await editTextFile(guard(at), [{ oldText: 'v1', newText: 'v2' }], { maxBytes: 1024, revealHash: false, expectedSha256: sha('x') }).catch(
      (e: Error) => e,
    );
    expect(error).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect((error as Error).message).not.toContain(sha('v1\n'));
  });

  it('PRECONDITION_FAILED, and the other program’s content kept, when the file changes between the read and the write', async () => {
    const at = file('a.txt', 'mine\n');
    let confirms = 0;
    // The first confirm is the read's; the second comes when the write opens the directory:
    // another program writes the file in between, exactly where a real race would.
    const racing: GuardedPath = {
      path: at,
      confirm: () => {
        if (++confirms === 2) fs.writeFileSync(at, 'theirs\n');
      },
    };
    await expect(editTextFile(racing, [{ oldText: 'mine', newText: 'edited' }], options)).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('changed since it was read'),
    });
    expect(confirms).toBe(2);
    expect(fs.readFileSync(at, 'utf8')).toBe('theirs\n');
  });

  it('edits a CRLF file with LF edits and keeps it CRLF', async () => {
    const at = file('w.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await editTextFile(guard(at), [{ oldText: 'one\ntwo', newText: 'one\n2\nextra' }], options);
    expect(fs.readFileSync(at, 'utf8')).toBe('one\r\n2\r\nextra\r\nthree\r\n');
    expect(result.sha256).toBe(sha('one\r\n2\r\nextra\r\nthree\r\n'));
    expect(result.diff).not.toContain('\r');
  });

  it('an edit that spells out CRLF is applied to the raw text', async () => {
    const at = file('w.txt', 'one\r\ntwo\r\n');
    await editTextFile(guard(at), [{ oldText: 'one\r\n', newText: '1\r\n' }], options);
    expect(fs.readFileSync(at, 'utf8')).toBe('1\r\ntwo\r\n');
  });

  it('a file with mixed line endings keeps the endings of the lines the edit did not touch', async () => {
    const at = file('m.txt', 'a\r\nb\nc\r\n');
    await editTextFile(guard(at), [{ oldText: 'c', newText: 'C' }], options);
    expect(fs.readFileSync(at, 'utf8')).toBe('a\r\nb\nC\r\n');
  });

  it('refuses a file larger than the limit, and a result larger than the limit, changing nothing', async () => {
    const big = file('big.txt', 'x'.repeat(2000));
    await expect(editTextFile(guard(big), [{ oldText: 'x', newText: 'y', replaceAll: true }], options)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('works on files up to 1024 bytes'),
    });
    const small = file('small.txt', 'x'.repeat(100));
    await expect(editTextFile(guard(small), [{ oldText: 'x', newText: 'yyyyyyyyyyyyyyyyyyyy', replaceAll: true }], options)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('1024'),
    });
    expect(fs.readFileSync(small, 'utf8')).toBe('x'.repeat(100));
  });

  it('refuses binary files and directories', async () => {
    const bin = file('b.bin', Buffer.from([0x61, 0, 0x62]));
    await expect(editTextFile(guard(bin), [{ oldText: 'a', newText: 'b' }], options)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    fs.mkdirSync(path.join(dir, 'd'));
    await expect(editTextFile(guard(path.join(dir, 'd')), [{ oldText: 'a', newText: 'b' }], options)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(editTextFile(guard(path.join(dir, 'none.txt')), [{ oldText: 'a', newText: 'b' }], options)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps the file mode', async () => {
    const at = file('run.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(at, 0o750);
    await editTextFile(guard(at), [{ oldText: 'hi', newText: 'there' }], options);
    expect(fs.statSync(at).mode & 0o777).toBe(0o750);
  });

  it('does not edit through a symlink in the file’s place', async () => {
    const target = file('target.txt', 'secret\n');
    fs.symlinkSync(target, path.join(dir, 'link.txt'));
    await expect(editTextFile(guard(path.join(dir, 'link.txt')), [{ oldText: 'secret', newText: 'x' }], options)).rejects.toMatchObject({
      code: 'PATH_NOT_ALLOWED',
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('secret\n');
  });
});
