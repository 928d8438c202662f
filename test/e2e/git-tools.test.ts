/**
 * The git tools end to end: real repositories in temp folders, a real server on loopback, the
 * v2 (2026-07-28) and v1 (legacy handshake) clients, git running in the command sandbox as the
 * default config has it on Linux. Every tool's happy path, through both clients.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { git, gitHome, makeBare, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let base: string;
let root: string;
let owner: GitHome;
let server: TestHttpServer;
const clients: Record<string, TestClient> = {};
const ALLOWED = ['allowed-modern.git', 'allowed-legacy.git'];

beforeAll(async () => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  root = path.join(base, 'root');
  fs.mkdirSync(root);
  const remotes = path.join(base, 'remotes');
  fs.mkdirSync(remotes);
  server = await startTestServer(
    {
      filesystem: { write: true, roots: [root, remotes] },
      git: { read: true, write: true, push: ALLOWED.map((name) => path.join(remotes, name)), pull: ALLOWED.map((name) => path.join(remotes, name)) },
    },
    { adapter: createLocalAdapter({ env: owner.env }) },
  );
  clients.modern = await connectModernHttp(server.url);
  clients.legacy = await connectLegacyHttp(server.url);
});

afterAll(async () => {
  for (const client of Object.values(clients)) await client.close();
  await server?.close();
  removeDir(base);
});

describe.each(['modern', 'legacy'])('%s client', (kind) => {
  let repo: string;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await clients[kind]!.callTool({ name, arguments: args });
    return { ...result, text: textOf(result) };
  };

  beforeAll(() => {
    repo = makeRepo(owner, path.join(root, `repo-${kind}`), { 'README.md': '# project\n', 'src/a.ts': 'export const a = 1;\n', '.env': 'TOKEN=secret\n' });
  });

  it('git.status lists changes, and withholds protected paths', async () => {
    writeFiles(repo, { 'src/a.ts': 'export const a = 2;\n', 'new.txt': 'new\n', '.env': 'TOKEN=changed\n' });
    const result = await call('git.status', { path: repo });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      repository: repo,
      branch: 'main',
      entries: [
        { path: 'src/a.ts', unstaged: 'modified' },
        { path: 'new.txt', untracked: true },
      ],
      withheld: 1,
    });
    expect(result.text).toContain('.M src/a.ts');
    expect(result.text).not.toContain('.env');
  });

  it('git.diff shows the patch', async () => {
    const result = await call('git.diff', { path: repo });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ files: [{ path: 'src/a.ts', change: 'modified', added: 1, removed: 1 }], withheld: 1 });
    expect(result.text).toContain('-export const a = 1;\n+export const a = 2;');
    expect(result.text).not.toContain('TOKEN');
  });

  it('git.add, git.diff --staged, git.unstage', async () => {
    const added = await call('git.add', { path: repo, paths: ['src/a.ts', 'new.txt'] });
    expect(added.isError, added.text).toBeFalsy();
    expect(added.structuredContent?.staged).toEqual([
      { path: 'new.txt', staged: 'added' },
      { path: 'src/a.ts', staged: 'modified' },
    ]);
    const staged = await call('git.diff', { path: repo, staged: true });
    expect((staged.structuredContent?.files as unknown[]).length).toBe(2);
    const unstaged = await call('git.unstage', { path: repo, paths: ['new.txt'] });
    expect(unstaged.structuredContent?.staged).toEqual([]);
    expect(unstaged.text).toBe('Nothing is staged under new.txt now');
    expect(git(owner, repo, ['diff', '--cached', '--name-only'])).toBe('src/a.ts\n');
  });

  it('git.add refuses a protected file, and a folder holding one', async () => {
    for (const paths of [['.env'], ['.']]) {
      const refused = await call('git.add', { path: repo, paths });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/\.env/);
    }
    expect(git(owner, repo, ['diff', '--cached', '--name-only'])).toBe('src/a.ts\n');
  });

  it('git.commit commits what is staged, git.log and git.show read it back', async () => {
    const committed = await call('git.commit', { path: repo, message: 'Bump a\n\n#42: the body stays' });
    expect(committed.isError, committed.text).toBeFalsy();
    expect(committed.structuredContent).toMatchObject({ branch: 'main', files: 1, added: 1, removed: 1, commit: { subject: 'Bump a', author: 'Test Owner' } });
    const log = await call('git.log', { path: repo, limit: 1, body: true });
    expect(log.structuredContent).toMatchObject({ commits: [{ subject: 'Bump a', body: '#42: the body stays' }], more: true });
    const shown = await call('git.show', { path: repo });
    expect(shown.text).toContain('+export const a = 2;');
    const file = await call('git.show', { path: repo, revision: 'HEAD~1', file: 'src/a.ts' });
    expect(file.structuredContent).toMatchObject({ kind: 'file', file: { content: 'export const a = 1;\n', binary: false } });
    const secret = await call('git.show', { path: repo, revision: 'HEAD', file: '.env' });
    expect(secret.isError).toBe(true);
    const empty = await call('git.commit', { path: repo, message: 'nothing' });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/nothing is staged/);
  });

  it('git.branch_create, git.branch_list, git.switch (a dirty tree refused), git.restore', async () => {
    const created = await call('git.branch_create', { path: repo, name: 'feature/x', start: 'HEAD~1' });
    expect(created.isError, created.text).toBeFalsy();
    const listed = await call('git.branch_list', { path: repo });
    expect(listed.structuredContent).toMatchObject({ current: 'main', local: [{ name: 'feature/x' }, { name: 'main', current: true }] });
    writeFiles(repo, { 'README.md': '# changed\n' });
    const dirty = await call('git.switch', { path: repo, branch: 'feature/x' });
    expect(dirty.isError).toBe(true);
    expect(dirty.text).toMatch(/uncommitted changes \(README\.md and 1 protected file\)/);
    const restored = await call('git.restore', { path: repo, paths: ['README.md'] });
    git(owner, repo, ['checkout', '--', '.env']);
    expect(restored.isError, restored.text).toBeFalsy();
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# project\n');
    const switched = await call('git.switch', { path: repo, branch: 'feature/x' });
    expect(switched.isError, switched.text).toBeFalsy();
    expect(fs.readFileSync(path.join(repo, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    await call('git.switch', { path: repo, branch: 'main' });
  });

  it('git.push and git.pull with an allowed local remote, git.clone from it', async () => {
    const work = makeRepo(owner, path.join(root, `work-${kind}`), { 'src/b.ts': 'export const b = 1;\n' });
    const bare = makeBare(owner, path.join(base, 'remotes', `allowed-${kind}.git`));
    git(owner, work, ['remote', 'add', 'origin', bare]);
    const pushed = await call('git.push', { path: work });
    expect(pushed.isError, pushed.text).toBeFalsy();
    expect(pushed.structuredContent).toMatchObject({ status: 'pushed', branch: 'main' });
    const other = path.join(root, `clone-${kind}`);
    const cloned = await call('git.clone', { url: bare, destination: other });
    expect(cloned.isError, cloned.text).toBeFalsy();
    expect(cloned.structuredContent).toMatchObject({ repository: other, branch: 'main' });
    expect(fs.readFileSync(path.join(other, 'src/b.ts'), 'utf8')).toBe('export const b = 1;\n');
    writeFiles(other, { 'src/b.ts': 'export const b = 2;\n' });
    git(owner, other, ['commit', '-q', '-am', 'from the clone']);
    git(owner, other, ['push', '-q', 'origin', 'main']);
    const pulled = await call('git.pull', { path: work });
    expect(pulled.isError, pulled.text).toBeFalsy();
    expect(pulled.structuredContent).toMatchObject({ branch: 'main', files: ['src/b.ts'] });
    expect(git(owner, work, ['log', '-1', '--format=%s'])).toBe('from the clone\n');
    expect(fs.readFileSync(path.join(work, 'src/b.ts'), 'utf8')).toBe('export const b = 2;\n');
  });
});
