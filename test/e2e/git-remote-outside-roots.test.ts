/**
 * An allowed local remote outside every root (or in a read-only one), with git in the command
 * sandbox as the default config has it on Linux (private home, private /tmp): the sandbox shares
 * the remote with git as the grant says (written by git.push, read by git.pull and git.clone).
 * Before, git inside the sandbox found no repository there ("does not appear to be a git
 * repository"), or a read-only one and answered "unpacker error (pull first)".
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { git, gitHome, makeBare, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let base: string;
let root: string;
let outside: string;
let owner: GitHome;
let server: TestHttpServer;
let client: TestClient;

beforeAll(async () => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  root = path.join(base, 'root');
  outside = path.join(base, 'elsewhere');
  const readOnly = path.join(base, 'read-only');
  for (const dir of [root, outside, readOnly]) fs.mkdirSync(dir);
  const remotes = [path.join(outside, 'up.git'), path.join(readOnly, 'up.git'), path.join(outside, 'declining.git'), path.join(root, 'mirror.git')];
  server = await startTestServer(
    { filesystem: { write: true, roots: [root, { path: readOnly, readOnly: true }] }, git: { read: true, write: true, push: remotes, pull: remotes } },
    { adapter: createLocalAdapter({ env: owner.env }) },
  );
  client = await connectModernHttp(server.url);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  removeDir(base);
});

const call = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  return { ...result, text: textOf(result) };
};

describe.each([
  ['outside every root (hidden in the sandbox)', () => path.join(outside, 'up.git')],
  ['in a read-only root', () => path.join(base, 'read-only', 'up.git')],
])('an allowed local remote %s', (label, remotePath) => {
  it('takes a push, gives a clone and a pull, and writes nothing beside it', async () => {
    const tag = label.startsWith('outside') ? 'a' : 'b';
    const bare = makeBare(owner, remotePath());
    const beside = path.join(path.dirname(bare), `beside-${tag}.txt`);
    fs.writeFileSync(beside, 'not shared\n');
    const work = makeRepo(owner, path.join(root, `work-${tag}`), { 'src/b.ts': 'export const b = 1;\n' });
    git(owner, work, ['remote', 'add', 'origin', bare]);
    const pushed = await call('git.push', { path: work });
    expect(pushed.isError, pushed.text).toBeFalsy();
    expect(pushed.structuredContent).toMatchObject({ status: 'pushed', branch: 'main' });
    expect(git(owner, bare, ['log', '-1', '--format=%s', 'main'])).toBe(git(owner, work, ['log', '-1', '--format=%s']));

    const other = path.join(root, `clone-${tag}`);
    const cloned = await call('git.clone', { url: bare, destination: other });
    expect(cloned.isError, cloned.text).toBeFalsy();
    expect(fs.readFileSync(path.join(other, 'src/b.ts'), 'utf8')).toBe('export const b = 1;\n');

    writeFiles(other, { 'src/b.ts': 'export const b = 2;\n' });
    git(owner, other, ['commit', '-q', '-am', 'from the clone']);
    git(owner, other, ['push', '-q', 'origin', 'main']);
    const pulled = await call('git.pull', { path: work });
    expect(pulled.isError, pulled.text).toBeFalsy();
    expect(fs.readFileSync(path.join(work, 'src/b.ts'), 'utf8')).toBe('export const b = 2;\n');
    // The folder holding the remote was not written beside it.
    expect(fs.readdirSync(path.dirname(bare)).sort()).toEqual([`beside-${tag}.txt`, 'up.git']);
  });
});

it("a push the remote declines (its own pre-receive hook, the owner's) is rejected with its reason, and not told to pull first", async () => {
  const bare = makeBare(owner, path.join(outside, 'declining.git'));
  fs.writeFileSync(path.join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\necho "frozen until Monday" >&2\nexit 1\n', { mode: 0o755 });
  const work = makeRepo(owner, path.join(root, 'work-declined'), { 'f.txt': 'one\n' });
  git(owner, work, ['remote', 'add', 'origin', bare]);
  const pushed = await call('git.push', { path: work });
  expect(pushed.isError, pushed.text).toBeFalsy();
  expect(pushed.structuredContent).toMatchObject({ status: 'rejected', reason: 'pre-receive hook declined' });
  expect(pushed.text).toBe('origin refused main: pre-receive hook declined');
});

it('a listed remote in a writable root that a tool made a link to another repository of yours is refused, and that repository left as it was', async () => {
  const victim = makeBare(owner, path.join(outside, 'victim.git'));
  const before = fs.readdirSync(path.join(victim, 'refs', 'heads'));
  // What a model can do with fs tools in the root: the listed path made a link elsewhere.
  fs.symlinkSync(victim, path.join(root, 'mirror.git'));
  const work = makeRepo(owner, path.join(root, 'work-redirected'), { 'f.txt': 'one\n' });
  git(owner, work, ['remote', 'add', 'origin', path.join(root, 'mirror.git')]);
  for (const [tool, args] of [
    ['git.push', { path: work }],
    ['git.pull', { path: work }],
    ['git.clone', { url: path.join(root, 'mirror.git'), destination: path.join(root, 'clone-redirected') }],
  ] as const) {
    const answer = await call(tool, args);
    expect(answer.isError, `${tool}: ${answer.text}`).toBe(true);
    expect(answer.text).toContain(`leads through a link in a folder the tools can write to ${victim}`);
  }
  expect(fs.readdirSync(path.join(victim, 'refs', 'heads'))).toEqual(before);
  expect(fs.existsSync(path.join(root, 'clone-redirected'))).toBe(false);
});
