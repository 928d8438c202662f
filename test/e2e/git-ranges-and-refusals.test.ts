/**
 * The git tools' options and their safe defaults, end to end (v2 client, real repositories):
 * a diff between two revisions limited to paths and held to its byte budget, a log of a range
 * and of paths, a push the remote would need forcing comes back rejected (the remote unchanged),
 * a pull that cannot fast-forward changes nothing, and a clone leaves submodules alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeBare, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';

let base: string;
let root: string;
let remotes: string;
let owner: GitHome;
let server: GitServer;
const call = (name: string, args: Record<string, unknown>) => server.call(name, args);

beforeAll(async () => {
  server = await startGitServer(
    ({ root, remotes }) => {
      const allowed = ['shared.git', 'with-sub.git'].map((name) => path.join(remotes!, name));
      return { filesystem: { write: true, roots: [root, remotes!] }, git: { read: true, write: true, push: allowed, pull: allowed } };
    },
    ['remotes'],
  );
  ({ base, root, remotes } = server.places as typeof server.places & { remotes: string });
  owner = server.owner;
});

afterAll(() => server?.close());

describe('git.diff and git.log options', () => {
  let repo: string;
  let first: string;
  beforeAll(() => {
    repo = makeRepo(owner, path.join(root, 'history'), { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    first = git(owner, repo, ['rev-parse', 'HEAD']).trim();
    git(owner, repo, ['switch', '-q', '-c', 'feature']);
    writeFiles(repo, { 'a.txt': 'a2\n', 'big.txt': `${'x'.repeat(100)}\n`.repeat(200) });
    git(owner, repo, ['add', '-A']);
    git(owner, repo, ['commit', '-q', '-m', 'a2 and big']);
    writeFiles(repo, { 'b.txt': 'b2\n' });
    git(owner, repo, ['commit', '-q', '-am', 'b2']);
  });

  it('between two revisions, only the paths asked for', async () => {
    const diff = await call('git.diff', { path: repo, from: first, to: 'feature', paths: ['b.txt'] });
    expect(diff.isError, diff.text).toBeFalsy();
    expect(diff.data).toMatchObject({ files: [{ path: 'b.txt', change: 'modified', added: 1, removed: 1 }], truncated: false });
    expect(diff.text).toContain('-b1\n+b2');
    expect(diff.text).not.toContain('a2');
  });

  it('keeps patches within maxBytes, listing the rest with their counts and saying how to see them', async () => {
    const diff = await call('git.diff', { path: repo, from: first, to: 'feature', maxBytes: 1024 });
    expect(diff.isError, diff.text).toBeFalsy();
    const files = diff.data.files as Array<{ path: string; added: number; patch?: string }>;
    expect(files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt', 'big.txt']);
    expect(files.find((f) => f.path === 'big.txt')).toMatchObject({ added: 200 });
    expect(files.find((f) => f.path === 'big.txt')?.patch).toBeUndefined();
    expect(diff.data.truncated).toBe(true);
    expect(files.reduce((n, f) => n + (f.patch?.length ?? 0), 0)).toBeLessThanOrEqual(1024);
    expect(diff.text).toMatch(/1 more changed file without patch \(over maxBytes; ask with paths\):\nadded big\.txt \(\+200 -0\)/);
  });

  it("git.show keeps a commit's patches within maxBytes too, and shows one left out when asked with paths (a root commit as well)", async () => {
    const shown = await call('git.show', { path: repo, revision: 'feature~1', maxBytes: 200 });
    expect(shown.isError, shown.text).toBeFalsy();
    expect(shown.text).toMatch(/without patch \(over maxBytes; ask with paths\):\nadded big\.txt \(\+200 -0\)/);
    const big = await call('git.show', { path: repo, revision: 'feature~1', paths: ['big.txt'], maxBytes: 1 << 20 });
    expect(big.isError, big.text).toBeFalsy();
    expect((big.data.diff as { files: Array<{ path: string; patch?: string }> }).files).toEqual([
      expect.objectContaining({ path: 'big.txt', patch: expect.stringContaining(`+${'x'.repeat(100)}`) }),
    ]);
    const root = await call('git.show', { path: repo, revision: first, paths: ['b.txt'] });
    expect(root.isError, root.text).toBeFalsy();
    expect(root.text).toContain('+b1');
    expect(root.text).not.toContain('+a1');
  });

  it('git.show of a file cut at maxBytes says how large the file is, a binary one too', async () => {
    const cut = await call('git.show', { path: repo, revision: 'feature', file: 'big.txt', maxBytes: 1000 });
    expect(cut.isError, cut.text).toBeFalsy();
    expect(cut.data.file).toMatchObject({ bytes: 1000, size: 20_200, truncated: true, binary: false });
    expect(cut.text).toMatch(/\[truncated: the first 1000 of 20200 bytes shown; raise maxBytes \(up to 1 MiB\)\]$/);
    const bin = makeRepo(owner, path.join(root, 'bin'), { 'a.txt': 'a\n' });
    fs.writeFileSync(path.join(bin, 'c.bin'), Buffer.alloc(200_000, 0));
    git(owner, bin, ['add', 'c.bin']);
    git(owner, bin, ['commit', '-q', '-m', 'binary']);
    const binary = await call('git.show', { path: bin, file: 'c.bin' });
    expect(binary.data.file).toMatchObject({ size: 200_000, truncated: true, binary: true });
    expect(binary.text).toBe('c.bin at HEAD: binary, 200000 bytes (not shown)');
  });

  it('git.status cut at maxEntries says how many changed in all, and how many are not shown', async () => {
    const busy = makeRepo(owner, path.join(root, 'busy'), { 'a.txt': 'a\n' });
    writeFiles(busy, { 'n1.txt': '1\n', 'n2.txt': '2\n', 'n3.txt': '3\n' });
    const status = await call('git.status', { path: busy, maxEntries: 1 });
    expect(status.isError, status.text).toBeFalsy();
    expect(status.data).toMatchObject({ total: 3, truncated: true });
    expect(status.text).toMatch(/: 3 changed\n\?\? n1\.txt\n2 more not shown \(raise maxEntries\)$/);
  });

  it('logs a range, and the commits touching a path', async () => {
    const range = await call('git.log', { path: repo, revision: 'main..feature' });
    expect((range.data.commits as Array<{ subject: string }>).map((c) => c.subject)).toEqual(['b2', 'a2 and big']);
    const touching = await call('git.log', { path: repo, revision: 'feature', paths: ['a.txt'] });
    expect((touching.data.commits as Array<{ subject: string }>).map((c) => c.subject)).toEqual(['a2 and big', 'first commit']);
    const refused = await call('git.log', { path: repo, revision: '--output=/tmp/x' });
    expect(refused.isError).toBe(true);
  });
});

describe('network writes keep to their safe forms', () => {
  it('a push the remote would need forcing is rejected and the remote keeps its commits; a pull that cannot fast-forward changes nothing', async () => {
    const mine = makeRepo(owner, path.join(root, 'mine'), { 'f.txt': 'one\n' });
    const bare = makeBare(owner, path.join(remotes, 'shared.git'), mine);
    git(owner, mine, ['remote', 'add', 'origin', bare]);
    const theirs = path.join(root, 'theirs');
    git(owner, root, ['clone', '-q', bare, theirs]);
    writeFiles(theirs, { 'f.txt': 'theirs\n' });
    git(owner, theirs, ['commit', '-q', '-am', 'theirs']);
    git(owner, theirs, ['push', '-q', 'origin', 'main']);
    const remoteHead = git(owner, bare, ['rev-parse', 'main']);
    writeFiles(mine, { 'f.txt': 'mine\n' });
    git(owner, mine, ['commit', '-q', '-am', 'mine']);
    const myHead = git(owner, mine, ['rev-parse', 'HEAD']);

    const pushed = await call('git.push', { path: mine });
    expect(pushed.isError, pushed.text).toBeFalsy();
    expect(pushed.data).toMatchObject({ status: 'rejected' });
    expect(pushed.text).toMatch(/pushes are never forced/);
    expect(git(owner, bare, ['rev-parse', 'main'])).toBe(remoteHead);

    const pulled = await call('git.pull', { path: mine });
    expect(pulled.isError).toBe(true);
    expect(pulled.text).toMatch(/fast-forward|commits of its own/i);
    expect(git(owner, mine, ['rev-parse', 'HEAD'])).toBe(myHead);
    expect(fs.readFileSync(path.join(mine, 'f.txt'), 'utf8')).toBe('mine\n');
  });

  it('a clone leaves submodules alone: their folders stay empty and nothing of theirs is fetched', async () => {
    const lib = makeRepo(owner, path.join(base, 'lib'), { 'lib.txt': 'library\n' });
    const app = makeRepo(owner, path.join(base, 'app'), { 'app.txt': 'app\n' });
    git(owner, app, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib']);
    git(owner, app, ['commit', '-q', '-m', 'a submodule']);
    const bare = makeBare(owner, path.join(remotes, 'with-sub.git'), app);

    const destination = path.join(root, 'cloned');
    const cloned = await call('git.clone', { url: bare, destination });
    expect(cloned.isError, cloned.text).toBeFalsy();
    expect(fs.readFileSync(path.join(destination, 'app.txt'), 'utf8')).toBe('app\n');
    expect(fs.readdirSync(path.join(destination, 'vendor', 'lib'))).toEqual([]);
    expect(fs.existsSync(path.join(destination, '.git', 'modules'))).toBe(false);
  });
});
