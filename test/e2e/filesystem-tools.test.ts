/** fs.* tools end to end over the modern HTTP client: semantics, atomicity and edge cases. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir } from '../helpers/temp.js';

let home: string;
let root: string;
let outside: string;
let server: TestHttpServer;
let client: TestClient;
const at = (...parts: string[]) => path.join(root, ...parts);
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { result, error: result.isError ? textOf(result) : null, data: result.structuredContent as Record<string, unknown> };
}

beforeAll(async () => {
  ({ home, root, outside } = makeRootAndOutside());
  server = await startTestServer({ filesystem: { write: true, roots: [root], maxReadBytes: 64, maxWriteBytes: 1024 } }, {});
  client = await connectModernHttp(server.url);
});
afterAll(async () => {
  await client.close();
  await server.close();
  removeDir(home);
});
beforeEach(() => {
  for (const entry of fs.readdirSync(root)) fs.rmSync(at(entry), { recursive: true, force: true });
  for (const entry of fs.readdirSync(outside)) fs.rmSync(path.join(outside, entry), { recursive: true, force: true });
});

describe('fs.read', () => {
  it('caps at filesystem.maxReadBytes without splitting a character; the sha256 only comes with the whole file', async () => {
    const text = 'é'.repeat(40); // 80 bytes
    fs.writeFileSync(at('t.txt'), text);
    const { data } = await call('fs.read', { path: 't.txt' });
    expect(data).toMatchObject({ content: 'é'.repeat(32), bytes: 64, totalBytes: 80, truncated: true });
    expect(data).not.toHaveProperty('sha256');
    fs.writeFileSync(at('fits.txt'), 'é'.repeat(32));
    const whole = await call('fs.read', { path: 'fits.txt' });
    expect(whole.data).toMatchObject({ content: 'é'.repeat(32), truncated: false, sha256: sha('é'.repeat(32)) });
    const smaller = await call('fs.read', { path: 't.txt', maxBytes: 5 });
    expect(smaller.data).toMatchObject({ content: 'éé', bytes: 4, truncated: true });
    const odd = await call('fs.read', { path: 't.txt', maxBytes: 1 });
    expect(odd.data).toMatchObject({ content: '', bytes: 0, truncated: true });
  });

  it('reads only what it returns: 16 bytes of a 4 GiB sparse file answer at once, and other calls are not held up', async () => {
    fs.writeFileSync(at('huge.txt'), 'head of a huge file\n');
    fs.truncateSync(at('huge.txt'), 4 * 1024 ** 3);
    fs.writeFileSync(at('small.txt'), 'small');
    const started = performance.now();
    const [big, small] = await Promise.all([call('fs.read', { path: 'huge.txt', maxBytes: 16 }), call('fs.read', { path: 'small.txt' })]);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(big.data).toMatchObject({ content: 'head of a huge f', truncated: true, totalBytes: 4 * 1024 ** 3 });
    expect(small.data).toMatchObject({ content: 'small', truncated: false });
    fs.rmSync(at('huge.txt'));
  });

  it.each([
    ['a binary file', () => fs.writeFileSync(at('b.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])), 'b.bin', /^INVALID_INPUT: .*not a UTF-8 text file/],
    ['invalid UTF-8', () => fs.writeFileSync(at('b.txt'), Buffer.from([0x61, 0xff, 0xfe, 0x62])), 'b.txt', /^INVALID_INPUT: /],
    ['a directory', () => fs.mkdirSync(at('d')), 'd', /^INVALID_INPUT: .*not a regular file/],
    ['a missing file', () => {}, 'missing.txt', /^NOT_FOUND: /],
    ['a secret', () => fs.writeFileSync(at('.env'), 'API_KEY=x'), '.env', /^PATH_NOT_ALLOWED: .*secret pattern/],
  ])('refuses %s clearly', async (_name, setup, target, message) => {
    setup();
    const { error } = await call('fs.read', { path: target });
    expect(error).toMatch(message);
    expect(error).not.toContain('API_KEY');
  });
});

describe('fs.write', () => {
  it('creates, refuses to create over an existing file, and leaves no temp files', async () => {
    expect((await call('fs.write', { path: 'a.txt', content: 'one', mode: 'create' })).data).toMatchObject({ created: true, sha256: sha('one') });
    const again = await call('fs.write', { path: 'a.txt', content: 'two', mode: 'create' });
    expect(again.error).toMatch(/^ALREADY_EXISTS: /);
    expect(fs.readFileSync(at('a.txt'), 'utf8')).toBe('one');
    expect(fs.readdirSync(root)).toEqual(['a.txt']);
  });

  it('says what happened in words: created, replaced, appended (never "created ... (overwrite)")', async () => {
    const created = await call('fs.write', { path: 'new.txt', content: 'abc' });
    expect(textOf(created.result)).toBe(`Created ${at('new.txt')} (3 bytes)`);
    const replaced = await call('fs.write', { path: 'new.txt', content: 'x' });
    expect(textOf(replaced.result)).toBe(`Replaced the contents of ${at('new.txt')} (1 byte)`);
    const appended = await call('fs.write', { path: 'new.txt', content: 'yz', mode: 'append' });
    expect(textOf(appended.result)).toBe(`Appended 2 bytes to ${at('new.txt')}`);
    const fresh = await call('fs.write', { path: 'log.txt', content: 'line', mode: 'append' });
    expect(textOf(fresh.result)).toBe(`Created ${at('log.txt')} (4 bytes)`);
  });

  it('overwrites only when expectedSha256 matches, and appends', async () => {
    fs.writeFileSync(at('a.txt'), 'v1');
    expect((await call('fs.write', { path: 'a.txt', content: 'v2', expectedSha256: sha('v1') })).data).toMatchObject({ created: false, sha256: sha('v2') });
    const stale = await call('fs.write', { path: 'a.txt', content: 'v3', expectedSha256: sha('v1') });
    expect(stale.error).toMatch(/^PRECONDITION_FAILED: .*changed since it was read/);
    expect(fs.readFileSync(at('a.txt'), 'utf8')).toBe('v2');
    expect((await call('fs.write', { path: 'a.txt', content: '+', mode: 'append' })).data).toMatchObject({ bytesWritten: 1, sha256: sha('v2+') });
    expect((await call('fs.write', { path: 'gone.txt', content: 'x', expectedSha256: sha('v1') })).error).toMatch(/^PRECONDITION_FAILED: .*does not exist/);
    expect(fs.existsSync(at('gone.txt'))).toBe(false);
  });

  it('keeps the file mode on overwrite', async () => {
    fs.writeFileSync(at('run.sh'), '#!/bin/sh\n', { mode: 0o750 });
    fs.chmodSync(at('run.sh'), 0o750);
    await call('fs.write', { path: 'run.sh', content: '#!/bin/sh\necho hi\n' });
    expect(fs.statSync(at('run.sh')).mode & 0o777).toBe(0o750);
  });

  it('refuses content over maxWriteBytes before touching anything, and a missing parent clearly', async () => {
    expect((await call('fs.write', { path: 'big.txt', content: 'x'.repeat(1025) })).error).toMatch(/^INVALID_INPUT: content is 1025 bytes; the limit is 1024/);
    expect(fs.existsSync(at('big.txt'))).toBe(false);
    expect((await call('fs.write', { path: 'no/such/dir.txt', content: 'x' })).error).toMatch(/^NOT_FOUND: .*create it first with fs\.mkdir/);
  });

  it('writes through a symlink only when its target is inside a root', async () => {
    fs.writeFileSync(at('target.txt'), 'old');
    fs.symlinkSync(at('target.txt'), at('inside-link'));
    fs.symlinkSync(path.join(outside, 'victim.txt'), at('outside-link'));
    expect((await call('fs.write', { path: 'inside-link', content: 'new' })).data).toMatchObject({ path: at('target.txt') });
    expect(fs.readFileSync(at('target.txt'), 'utf8')).toBe('new');
    expect((await call('fs.write', { path: 'outside-link', content: 'pwned' })).error).toMatch(/^PATH_NOT_ALLOWED: /);
    expect(fs.existsSync(path.join(outside, 'victim.txt'))).toBe(false);
  });
});

describe('fs.mkdir, fs.list', () => {
  it('fs.list without a path lists the first root', async () => {
    fs.writeFileSync(at('a.txt'), 'a');
    const listed = await call('fs.list', {});
    expect(listed.error).toBeNull();
    expect(listed.data).toMatchObject({ path: root, entries: [{ name: 'a.txt', type: 'file' }] });
  });

  it('creates directories idempotently and lists entries with types, hiding secrets', async () => {
    expect((await call('fs.mkdir', { path: 'a/b' })).error).toMatch(/^NOT_FOUND: .*recursive: true/);
    expect((await call('fs.mkdir', { path: 'a/b', recursive: true })).data).toMatchObject({ path: at('a/b'), created: true });
    expect((await call('fs.mkdir', { path: 'a/b', recursive: true })).data).toMatchObject({ created: false });
    fs.writeFileSync(at('f.txt'), 'abc');
    fs.writeFileSync(at('.env'), 'SECRET=1');
    fs.mkdirSync(at('.ssh'));
    fs.symlinkSync(at('f.txt'), at('link'));
    const { result, data } = await call('fs.list', { path: '.' });
    // The text a model reads names the same entries (and never the hidden secrets).
    expect(textOf(result)).toBe(`${root}: 3 entries, sizes in bytes\na/\nf.txt  3\nlink  (symlink)`);
    const entries = data.entries as Array<{ name: string; type: string; size?: number; mtime: string }>;
    expect(entries.map((e) => [e.name, e.type, e.size])).toEqual([
      ['a', 'directory', undefined],
      ['f.txt', 'file', 3],
      ['link', 'symlink', undefined],
    ]);
    expect(Number.isNaN(Date.parse(entries[0]!.mtime))).toBe(false);
    expect(data.truncated).toBe(false);
  });
});

describe('fs.move and fs.delete', () => {
  it('moves and renames within roots, refusing to clobber unless asked', async () => {
    fs.writeFileSync(at('a.txt'), 'a');
    fs.writeFileSync(at('b.txt'), 'b');
    expect((await call('fs.move', { source: 'a.txt', destination: 'b.txt' })).error).toMatch(/^ALREADY_EXISTS: .*overwrite: true/);
    expect((await call('fs.move', { source: 'a.txt', destination: 'b.txt', overwrite: true })).data).toMatchObject({
      source: at('a.txt'),
      destination: at('b.txt'),
    });
    expect(fs.readFileSync(at('b.txt'), 'utf8')).toBe('a');
    expect((await call('fs.move', { source: 'b.txt', destination: path.join(outside, 'b.txt') })).error).toMatch(/^PATH_NOT_ALLOWED: /);
    expect((await call('fs.move', { source: root, destination: 'elsewhere' })).error).toMatch(/^PATH_NOT_ALLOWED: .*configured root/);
    expect((await call('fs.move', { source: 'missing', destination: 'x' })).error).toMatch(/^NOT_FOUND: /);
  });

  it('deletes files and directories, non-empty ones only with recursive, never a root', async () => {
    fs.mkdirSync(at('d/e'), { recursive: true });
    fs.writeFileSync(at('d/e/f.txt'), 'f');
    expect((await call('fs.delete', { path: 'd' })).error).toMatch(/^INVALID_INPUT: .*not empty/);
    expect((await call('fs.delete', { path: 'd', recursive: true })).data).toMatchObject({ path: at('d'), type: 'directory' });
    expect(fs.existsSync(at('d'))).toBe(false);
    expect((await call('fs.delete', { path: root, recursive: true })).error).toMatch(/^PATH_NOT_ALLOWED: .*configured root/);
    expect((await call('fs.delete', { path: '.', recursive: true })).error).toMatch(/^PATH_NOT_ALLOWED: /);
    expect(fs.existsSync(root)).toBe(true);
  });

  it('a recursive delete refuses a folder holding what could not be deleted alone, and deletes nothing of it', async () => {
    for (const inner of ['proj/.env', 'proj/src/app.ts', 'proj/.git/hooks/pre-commit']) {
      fs.mkdirSync(path.dirname(at(inner)), { recursive: true });
      fs.writeFileSync(at(inner), 'x');
    }
    expect((await call('fs.delete', { path: 'proj/.env' })).error).toMatch(/^PATH_NOT_ALLOWED: /);
    const whole = await call('fs.delete', { path: 'proj', recursive: true });
    expect(whole.error).toMatch(/^PATH_NOT_ALLOWED: .*\.env/);
    for (const inner of ['proj/.env', 'proj/src/app.ts', 'proj/.git/hooks/pre-commit']) expect(fs.existsSync(at(inner)), inner).toBe(true);
    // Without the secret, only git's hooks stand in the way; without those, it goes.
    fs.rmSync(at('proj/.env'));
    expect((await call('fs.delete', { path: 'proj', recursive: true })).error).toMatch(/^PATH_NOT_ALLOWED: .*git/);
    fs.rmSync(at('proj/.git'), { recursive: true });
    expect((await call('fs.delete', { path: 'proj', recursive: true })).data).toMatchObject({ type: 'directory' });
    expect(fs.existsSync(at('proj'))).toBe(false);
  });

  it('deletes and moves a symlink itself, never its target, even one pointing outside', async () => {
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'keep');
    fs.symlinkSync(path.join(outside, 'keep.txt'), at('out-link'));
    fs.writeFileSync(at('in.txt'), 'in');
    fs.symlinkSync(at('in.txt'), at('in-link'));
    expect((await call('fs.delete', { path: 'out-link' })).data).toMatchObject({ path: at('out-link'), type: 'symlink' });
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect((await call('fs.move', { source: 'in-link', destination: 'renamed-link' })).data).toMatchObject({ destination: at('renamed-link') });
    expect(fs.lstatSync(at('renamed-link')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(at('in.txt'), 'utf8')).toBe('in');
    expect((await call('fs.delete', { path: 'in-link' })).error).toMatch(/^NOT_FOUND: /);
  });

  it('refuses to delete through a symlinked parent directory that leads outside', async () => {
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'keep');
    fs.symlinkSync(outside, at('out-dir'));
    expect((await call('fs.delete', { path: 'out-dir/keep.txt' })).error).toMatch(/^PATH_NOT_ALLOWED: /);
    expect(fs.existsSync(path.join(outside, 'keep.txt'))).toBe(true);
  });
});
