/**
 * What a model that can write files (but not run commands) could plant for the git tools: a git
 * folder under another name, a submodule whose git folder it wrote, remotes git would read as
 * folders, a local remote's own settings, HTTPS settings that send an allowed remote's traffic
 * elsewhere, includes and file settings reaching outside the roots, a linked worktree's own
 * settings, and a blob diff of a protected file. Each is refused (or never entered), and a marker
 * file the planted program would write proves nothing ran. The sandbox is off here, so the refusals alone stop them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeBare, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';

let root: string;
let outside: string;
let owner: GitHome;
let server: GitServer;
let marker: string;
let program: string;

beforeAll(async () => {
  server = await startGitServer(({ root }) => {
    const local = (name: string) => path.join(root, name);
    return {
      filesystem: { write: true, roots: [root] },
      shell: { sandbox: 'off' },
      git: {
        read: true,
        write: true,
        push: ['me/app', local('backup.git'), local('plain-backup'), local('busy.git'), 'https://github.com/me/app'],
        pull: ['me/app', 'github.com/me/app', local('backup.git')],
      },
    };
  });
  ({ root, outside } = server.places);
  owner = server.owner;
  marker = path.join(server.places.base, 'ran');
  program = path.join(server.places.base, 'program.sh');
  fs.writeFileSync(program, `#!/bin/sh\necho ran >> '${marker}'\ncat\n`, { mode: 0o755 });
});

afterAll(() => server?.close());

const call = (name: string, args: Record<string, unknown>) => server.call(name, args);
const ran = () => fs.existsSync(marker);
const FILTER = () => `[filter "x"]\n\tclean = ${program}\n\tsmudge = ${program}\n`;

describe('git folders a model could have written', () => {
  // A git folder under another name, or inside a folder named .git under a name that is no git folder's there.
  it.each([
    ['planted', 'm-gd'],
    ['planted-inside', '.git/m-gd'],
  ])('a repository whose git folder is not a .git folder is refused, though the file tools could write every part of it (%s)', async (name, gd) => {
    const app = path.join(root, name);
    // All written by the model, through fs.mkdir and fs.write: a .git file and a git folder under another name.
    for (const folder of ['m', `${gd}/objects/info`, `${gd}/refs/heads`]) {
      const made = await call('fs.mkdir', { path: path.join(app, folder), recursive: true });
      expect(made.isError, made.text).toBeFalsy();
    }
    for (const [file, content] of [
      ['m/.git', `gitdir: ../${gd}\n`],
      [`${gd}/HEAD`, 'ref: refs/heads/main\n'],
      [`${gd}/config`, `[core]\n\trepositoryformatversion = 0\n\tbare = false\n`],
      [`${gd}/objects/info/.keep`, ''],
      [`${gd}/refs/heads/.keep`, ''],
      ['m/f.txt', 'x\n'],
      ['m/.gitattributes', '* filter=x\n'],
    ]) {
      const written = await call('fs.write', { path: path.join(app, file!), content });
      expect(written.isError, `${file}: ${written.text}`).toBeFalsy();
    }
    for (const [tool, args] of [
      ['git.status', {}],
      ['git.diff', {}],
      ['git.add', { paths: ['f.txt'] }],
    ] as const) {
      const result = await call(tool, { path: path.join(app, 'm'), ...args });
      expect(result.text).toMatch(/^PATH_NOT_ALLOWED: its git folder, .*m-gd, is not a \.git folder/);
    }
    expect(ran()).toBe(false);
  });

  it('a submodule is never entered, so a git folder planted behind its .git file runs nothing (status, diff, switch, commit)', async () => {
    const app = makeRepo(owner, path.join(root, 'super'), { 'README.md': '# super\n' });
    const inner = makeRepo(owner, path.join(app, 'm'), { 'f.txt': 'inner\n' });
    git(owner, app, ['add', 'm']);
    git(owner, app, ['commit', '-q', '-m', 'a submodule link']);
    git(owner, app, ['branch', 'other']);
    // The submodule's .git becomes a file (as in a modern checkout) pointing at a git folder whose config names a filter.
    const planted = path.join(root, 'super-m-gd');
    fs.renameSync(path.join(inner, '.git'), planted);
    fs.appendFileSync(path.join(planted, 'config'), FILTER());
    fs.writeFileSync(path.join(inner, '.git'), `gitdir: ${planted}\n`);
    writeFiles(inner, { '.gitattributes': '* filter=x\n', 'f.txt': 'INNER\n' });
    for (const [tool, args] of [
      ['git.status', {}],
      ['git.diff', {}],
      ['git.switch', { branch: 'other' }],
      ['git.commit', { message: 'nothing staged' }],
    ] as const) {
      const result = await call(tool, { path: app, ...args });
      if (tool === 'git.status') expect(result.isError, result.text).toBeFalsy();
    }
    expect(ran()).toBe(false);
  });
});

describe("a linked worktree's own settings", () => {
  it('with extensions.worktreeConfig, its config.worktree is read like the repository config: a program named there is refused, and the file tools cannot write it or redirect git', async () => {
    const repo = makeRepo(owner, path.join(root, 'trunk'));
    const linked = path.join(root, 'trunk-linked');
    git(owner, repo, ['worktree', 'add', '-q', linked]);
    git(owner, repo, ['config', 'extensions.worktreeConfig', 'true']);
    const admin = path.join(repo, '.git', 'worktrees', 'trunk-linked');
    // What a model would write between the git tools' look at the settings and git's run.
    const planted: Array<[string, string]> = [
      [path.join(admin, 'config.worktree'), `[core]\n\tfsmonitor = ${program}\n`],
      [path.join(repo, '.git', 'config.worktree'), `[core]\n\tfsmonitor = ${program}\n`],
      [path.join(admin, 'commondir'), `${path.join(root, 'elsewhere', '.git')}\n`],
      [path.join(repo, '.git', 'commondir'), `${path.join(root, 'elsewhere', '.git')}\n`],
      [path.join(admin, 'gitdir'), `${path.join(outside, '.git')}\n`],
    ];
    for (const [file, content] of planted) {
      const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      const written = await call('fs.write', { path: file, content });
      expect(written.text, file).toMatch(/^PATH_NOT_ALLOWED: .* is where git runs code from on the next git command .*filesystem\.allowGitHookWrites/);
      expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null, file).toBe(before);
    }
    const clean = await call('git.status', { path: linked });
    expect(clean.isError, clean.text).toBeFalsy();

    // Set there all the same (by the owner's git, as a race won would leave it): git.status refuses, naming the setting and the file.
    git(owner, linked, ['config', '--worktree', 'core.fsmonitor', program]);
    const refused = await call('git.status', { path: linked });
    expect(refused.text).toMatch(/^COMMAND_NOT_ALLOWED: core\.fsmonitor is set by the repository's own config \(.*worktrees\/trunk-linked\/config\.worktree\)/);
    git(owner, linked, ['config', '--worktree', '--unset', 'core.fsmonitor']);
    // The main worktree's config.worktree, the same.
    git(owner, repo, ['config', '--worktree', 'core.fsmonitor', program]);
    const main = await call('git.status', { path: repo });
    expect(main.text).toMatch(/^COMMAND_NOT_ALLOWED: core\.fsmonitor is set by the repository's own config \(.*\.git\/config\.worktree\)/);
    expect(ran()).toBe(false);

    // A worktree of a bare name.git: its git folders are ones whose code the file tools protect too.
    const bare = makeBare(owner, path.join(root, 'trunk-bare.git'), repo);
    const fromBare = path.join(root, 'trunk-from-bare');
    git(owner, bare, ['worktree', 'add', '-q', fromBare]);
    const status = await call('git.status', { path: fromBare });
    expect(status.isError, status.text).toBeFalsy();
    const written = await call('fs.write', { path: path.join(bare, 'worktrees', 'trunk-from-bare', 'commondir'), content: '../../../elsewhere\n' });
    expect(written.text).toMatch(/^PATH_NOT_ALLOWED: .* is where git runs code from/);
  });
});

describe('remotes', () => {
  it('the allow-list short forms are refused as URLs: git would read them as folders here', async () => {
    fs.mkdirSync(path.join(root, 'me', 'app'), { recursive: true });
    const repo = makeRepo(owner, path.join(root, 'short'));
    git(owner, repo, ['remote', 'add', 'origin', 'me/app']);
    const pushed = await call('git.push', { path: repo, remote: 'origin' });
    expect(pushed.text).toMatch(/^COMMAND_NOT_ALLOWED: the remote origin \(me\/app\) cannot be used: git reads "me\/app" as a folder/);
    for (const url of ['me/app', 'github.com/me/app']) {
      const cloned = await call('git.clone', { url, destination: path.join(root, `clone-${url.length}`) });
      expect(cloned.text).toMatch(/^COMMAND_NOT_ALLOWED: the clone source .* cannot be used: git reads/);
    }
  });

  it("a local remote in a writable root: its config and hooks are protected from the file tools, checked like the repository's own, and it must be named *.git", async () => {
    const repo = makeRepo(owner, path.join(root, 'pusher'));
    const backup = makeBare(owner, path.join(root, 'backup.git'), repo);
    git(owner, repo, ['remote', 'add', 'origin', backup]);
    for (const file of ['config', 'hooks/post-receive']) {
      const written = await call('fs.write', { path: path.join(backup, file), content: `[core]\n\talternateRefsCommand = ${program}\n` });
      expect(written.text).toMatch(/^PATH_NOT_ALLOWED: .* is where git runs code from/);
    }
    writeFiles(repo, { 'b.txt': 'b\n' });
    git(owner, repo, ['add', 'b.txt']);
    git(owner, repo, ['commit', '-q', '-m', 'b']);
    const pushed = await call('git.push', { path: repo, remote: 'origin' });
    expect(pushed.isError, pushed.text).toBeFalsy();

    // The owner's own setting there, in a writable root: refused as it would be in the repository worked in.
    const busy = makeBare(owner, path.join(root, 'busy.git'), repo);
    git(owner, busy, ['config', 'core.alternateRefsCommand', program]);
    git(owner, repo, ['remote', 'add', 'busy', busy]);
    const refused = await call('git.push', { path: repo, remote: 'busy' });
    expect(refused.text).toMatch(/^COMMAND_NOT_ALLOWED: core\.alternaterefscommand is set by the repository's own config/);

    const plain = makeBare(owner, path.join(root, 'plain-backup'), repo);
    git(owner, repo, ['remote', 'add', 'plain', plain]);
    const unnamed = await call('git.push', { path: repo, remote: 'plain' });
    expect(unnamed.text).toMatch(/^COMMAND_NOT_ALLOWED: the remote plain .* is not named \.git or \*\.git/);
    expect(ran()).toBe(false);
  });

  it("HTTPS settings in the repository's config are refused, and a token in a remote URL is never shown", async () => {
    const repo = makeRepo(owner, path.join(root, 'https'));
    git(owner, repo, ['remote', 'add', 'origin', 'https://owner:ghp_SECRET@github.com:8443/me/app']);
    for (const [key, value] of [
      ['http.curloptResolve', 'github.com:8443:127.0.0.1'],
      ['http.sslVerify', 'false'],
      ['http.https://github.com.extraHeader', 'X: y'],
    ]) {
      git(owner, repo, ['config', key!, value!]);
      const result = await call('git.push', { path: repo, remote: 'origin' });
      expect(result.text).toMatch(new RegExp(`^COMMAND_NOT_ALLOWED: ${key!.toLowerCase().replace(/\./g, '\\.').replace('extraheader', 'extraheader')}`, 'i'));
      git(owner, repo, ['config', '--unset', key!]);
    }
    const refused = await call('git.push', { path: repo, remote: 'origin' });
    expect(refused.text).toMatch(/password/);
    git(owner, repo, ['remote', 'set-url', 'origin', 'https://ghp_SECRET@example.com/me/app']);
    const other = await call('git.push', { path: repo, remote: 'origin' });
    expect(other.text).toMatch(/https:\/\/\*\*\*@example\.com/);
    expect(JSON.stringify([refused, other])).not.toContain('ghp_SECRET');
  });
});

describe('reading outside the roots through settings', () => {
  it('a config included from outside the roots is refused, and none of it reaches the answer', async () => {
    const secret = makeRepo(owner, path.join(outside, 'private'));
    git(owner, secret, ['remote', 'add', 'origin', 'https://owner:ghp_INCLUDED@github.com/owner/private.git']);
    const repo = makeRepo(owner, path.join(root, 'includer'));
    git(owner, repo, ['config', 'include.path', path.join(secret, '.git', 'config')]);
    const result = await call('git.status', { path: repo });
    expect(result.text).toMatch(/^PATH_NOT_ALLOWED: the repository's config takes settings from .*private\/\.git\/config .*refused/);
    expect(JSON.stringify(result)).not.toContain('ghp_INCLUDED');
  });

  it('a config included from a file the tools can write is refused even while it names nothing: it could by the time git reads it', async () => {
    const repo = makeRepo(owner, path.join(root, 'self-includer'));
    writeFiles(repo, { 'team.cfg': '[user]\n\tname = Team\n' });
    git(owner, repo, ['config', 'include.path', '../team.cfg']);
    const result = await call('git.status', { path: repo });
    expect(result.text).toMatch(/^COMMAND_NOT_ALLOWED: the repository's config takes settings from .*team\.cfg .*a file the tools can write/);
  });

  it('a file setting naming a file outside the roots is refused', async () => {
    fs.writeFileSync(path.join(outside, 'mailmap'), 'Someone <x@y>\n');
    const repo = makeRepo(owner, path.join(root, 'mailmapper'));
    git(owner, repo, ['config', 'mailmap.file', path.join(outside, 'mailmap')]);
    const result = await call('git.log', { path: repo });
    expect(result.text).toMatch(/^PATH_NOT_ALLOWED: mailmap\.file in the repository's own config makes git read .*outside/);
  });

  it("git.diff between two blob ids is refused: a protected file's content would have no path to check", async () => {
    const repo = makeRepo(owner, path.join(root, 'blobs'), { 'a.txt': 'a\n', '.env': 'API_KEY=sk-live-SECRET\n' });
    const a = git(owner, repo, ['rev-parse', 'HEAD:a.txt']).trim();
    const env = git(owner, repo, ['rev-parse', 'HEAD:.env']).trim();
    const result = await call('git.diff', { path: repo, from: a, to: env });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(`INVALID_INPUT: ${a} is not a commit: only commits are compared (a file's or folder's id is refused)`);
    expect(JSON.stringify(result)).not.toContain('sk-live-SECRET');
    const commits = await call('git.diff', { path: repo, from: 'HEAD', to: 'HEAD' });
    expect(commits.isError, commits.text).toBeFalsy();
  });
});
