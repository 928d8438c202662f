/**
 * Local remotes and the command sandbox (the default config on Linux: private home, private
 * /tmp), against a model that can write files in the roots (a red-team round's findings): a
 * remote is the repository its URL names where it really is, never by a link git would read
 * differently inside the sandbox (/proc/self/cwd is git's own folder there), a %-escape git
 * decodes, or spaces git does not trim; a listed path a tool made a link elsewhere is refused;
 * a remote in a writable root must itself be the repository looked at (git on the remote side
 * never opens one above it); and a push to a remote git cannot write in the sandbox is refused
 * with what to do, before it fails there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeBare, makeRepo, type GitHome } from '../helpers/git-repos.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';

let root: string;
let outside: string;
let owner: GitHome;
let server: GitServer;
const call = (name: string, args: Record<string, unknown>) => server.call(name, args);

beforeAll(async () => {
  server = await startGitServer(({ root, outside }) => {
    const remotes = [path.join(outside, 'up.git'), path.join(root, 'mirror.git'), path.join(root, 'nest', 'plain.git'), path.join(root, 'shared.git')];
    return { filesystem: { write: true, roots: [root] }, git: { read: true, write: true, push: remotes, pull: remotes } };
  });
  ({ root, outside } = server.places);
  owner = server.owner;
});

afterAll(() => server?.close());

describe('a local remote', () => {
  it('outside the writable roots: a push is refused with what to do, and the remote is left as it was', async () => {
    const bare = makeBare(owner, path.join(outside, 'up.git'));
    const work = makeRepo(owner, path.join(root, 'work-outside'), { 'f.txt': 'one\n' });
    git(owner, work, ['remote', 'add', 'origin', bare]);
    const pushed = await call('git.push', { path: work });
    expect(pushed.isError).toBe(true);
    expect(pushed.text).toMatch(
      /the remote origin \(.*up\.git\) lies outside the writable roots, and git runs in the command sandbox.*make its folder a writable root/,
    );
    expect(fs.readdirSync(path.join(bare, 'refs', 'heads'))).toEqual([]);
  });

  it('named through /proc/self (a link git reads otherwise in the sandbox), a %-escaped .., or with a leading space, is refused, and nothing is cloned', async () => {
    const up = path.join(outside, 'up.git');
    const encoded = `file:///proc/self/cwd${'%2F..'.repeat(8)}${up.replaceAll('/', '%2F')}`;
    for (const url of [`/proc/self/root${up}`, encoded, ` ${up}`]) {
      const cloned = await call('git.clone', { url, destination: path.join(root, 'clone-spoofed') });
      expect(cloned.isError, `${url}: ${cloned.text}`).toBe(true);
      expect(cloned.text, url).toMatch(/leads through a link|no %-escapes|no spaces or control characters/);
    }
    expect(fs.existsSync(path.join(root, 'clone-spoofed'))).toBe(false);
  });

  it('listed in a writable root, made a link by a tool to another repository of yours, is refused, and that repository left as it was', async () => {
    const victim = makeBare(owner, path.join(outside, 'victim.git'));
    // What a model can do with the file tools in the root: the listed path made a link elsewhere.
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
      expect(answer.text).toContain(`leads through a link`);
    }
    expect(fs.readdirSync(path.join(victim, 'refs', 'heads'))).toEqual([]);
    expect(fs.existsSync(path.join(root, 'clone-redirected'))).toBe(false);
  });

  it('in a writable root that is not itself a repository (one above it is) is refused: git would open another there', async () => {
    const nest = makeRepo(owner, path.join(root, 'nest'), { 'n.txt': 'n\n' });
    const plain = makeBare(owner, path.join(nest, 'plain.git'));
    // A tool may write HEAD: the folder is then no repository, and the probe would look above it.
    fs.writeFileSync(path.join(plain, 'HEAD'), 'not a ref\n');
    const work = makeRepo(owner, path.join(root, 'work-nested'), { 'f.txt': 'one\n' });
    git(owner, work, ['remote', 'add', 'origin', plain]);
    const pushed = await call('git.push', { path: work });
    expect(pushed.isError).toBe(true);
    expect(pushed.text).toMatch(/is not itself a git repository .*git would open another repository there/);
  });

  it('a bare one in a writable root: a tool cannot give it a .git of its own (git on its side would follow it elsewhere), and one there is refused', async () => {
    const work = makeRepo(owner, path.join(root, 'work-shared'), { 'f.txt': 'one\n' });
    const shared = makeBare(owner, path.join(root, 'shared.git'), work);
    const victim = makeBare(owner, path.join(outside, 'victim2.git'));
    const planted = await call('fs.write', { path: path.join(shared, '.git'), content: `gitdir: ${victim}\n` });
    expect(planted.isError).toBe(true);
    expect(fs.existsSync(path.join(shared, '.git'))).toBe(false);
    // As if it had been there before the protection (or the owner made it).
    fs.writeFileSync(path.join(shared, '.git'), `gitdir: ${shared}\n`);
    git(owner, work, ['remote', 'add', 'origin', shared]);
    for (const [tool, args] of [
      ['git.push', { path: work }],
      ['git.pull', { path: work }],
      ['git.clone', { url: shared, destination: path.join(root, 'clone-shared') }],
    ] as const) {
      const answer = await call(tool, args);
      expect(answer.isError, `${tool}: ${answer.text}`).toBe(true);
      expect(answer.text).toContain('holds a .git of its own');
    }
    expect(fs.readdirSync(path.join(victim, 'refs', 'heads'))).toEqual([]);
  });
});
