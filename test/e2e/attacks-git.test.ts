/**
 * Repositories planted with settings that make git run a program (a hook, core.fsmonitor, a
 * clean/smudge filter, diff.external, an alias, an ext:: remote, core.sshCommand, and each of
 * these reached through an include file in the working tree), and with places outside the roots
 * (a .git file, alternates, core.worktree). Each is refused with a message naming the setting,
 * and a marker file the planted program would write proves nothing ran: the probe included.
 * The sandbox is off here, so the refusals alone are what stops them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { git, makeBare, makeRepo, writeFiles, type GitHome } from '../helpers/git-repos.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { startTestServer } from '../helpers/servers.js';

let base: string;
let root: string;
let outside: string;
let owner: GitHome;
let server: GitServer;
let allowedRemote: string;

beforeAll(async () => {
  server = await startGitServer(({ root }) => {
    allowedRemote = path.join(root, 'allowed.git');
    return {
      filesystem: { write: true, roots: [root] },
      shell: { sandbox: 'off' },
      git: { read: true, write: true, push: [allowedRemote], pull: [allowedRemote] },
    };
  });
  ({ base, root, outside } = server.places);
  owner = server.owner;
});

afterAll(() => server?.close());

const call = (name: string, args: Record<string, unknown>) => server.call(name, args);

/** A fresh repository with a planted program that writes `marker` if anything runs it. */
function planted(name: string): { repo: string; marker: string; program: string } {
  const repo = makeRepo(owner, path.join(root, name), { 'README.md': '# x\n', 'a.txt': 'a\n' });
  const marker = path.join(root, `${name}.ran`);
  const program = path.join(root, `${name}.sh`);
  fs.writeFileSync(program, `#!/bin/sh\necho ran > '${marker}'\nexit 1\n`, { mode: 0o755 });
  writeFiles(repo, { 'a.txt': 'a changed\n' });
  return { repo, marker, program };
}

const READS = [
  ['git.status', {}],
  ['git.diff', {}],
  ['git.log', {}],
  ['git.show', {}],
  ['git.branch_list', {}],
] as const;
const WRITES = [
  ['git.add', { paths: ['a.txt'] }],
  ['git.commit', { message: 'x' }],
  ['git.restore', { paths: ['a.txt'] }],
] as const;

describe('a repository whose own settings name a program is refused before any git run', () => {
  type Target = { repo: string; program: string };
  /** name, how it is planted, the setting the refusal names, and the owner's own git run that shows the plant works. */
  const settings: Array<[string, (t: Target) => void, string, string[]?]> = [
    ['core.fsmonitor', ({ repo, program }) => git(owner, repo, ['config', 'core.fsmonitor', program]), 'core.fsmonitor', ['status']],
    [
      'core.hooksPath',
      ({ repo, program }) => {
        const hooks = `${program}-hooks`;
        fs.mkdirSync(hooks);
        fs.copyFileSync(program, path.join(hooks, 'pre-commit'));
        git(owner, repo, ['config', 'core.hooksPath', hooks]);
      },
      'core.hookspath',
      ['commit', '-qam', 'x'],
    ],
    [
      'a clean/smudge filter',
      ({ repo, program }) => {
        git(owner, repo, ['config', 'filter.evil.clean', program]);
        git(owner, repo, ['config', 'filter.evil.smudge', program]);
        writeFiles(repo, { '.gitattributes': '* filter=evil\n' });
      },
      'filter.evil.clean',
      ['add', 'a.txt'],
    ],
    ['diff.external', ({ repo, program }) => git(owner, repo, ['config', 'diff.external', program]), 'diff.external', ['diff']],
    [
      'a textconv driver',
      ({ repo, program }) => {
        git(owner, repo, ['config', 'diff.evil.textconv', program]);
        writeFiles(repo, { '.gitattributes': 'a.txt diff=evil\n' });
      },
      'diff.evil.textconv',
      ['diff'],
    ],
    ['an alias', ({ repo, program }) => git(owner, repo, ['config', 'alias.st', `!${program}`]), 'alias.st', ['st']],
    [
      'an ext:: remote',
      ({ repo, program }) => git(owner, repo, ['config', 'remote.evil.url', `ext::${program} %S`]),
      'remote.evil.url',
      ['-c', 'protocol.ext.allow=always', 'fetch', 'evil'],
    ],
    [
      'core.sshCommand',
      ({ repo, program }) => git(owner, repo, ['config', 'core.sshCommand', program]),
      'core.sshcommand',
      ['ls-remote', 'ssh://example.invalid/r'],
    ],
    ['core.pager', ({ repo, program }) => git(owner, repo, ['config', 'core.pager', program]), 'core.pager'],
    ['a credential helper', ({ repo, program }) => git(owner, repo, ['config', 'credential.helper', `!${program}`]), 'credential.helper'],
    ['gpg.program', ({ repo, program }) => git(owner, repo, ['config', 'gpg.program', program]), 'gpg.program'],
    ['url.insteadOf', ({ repo }) => git(owner, repo, ['config', 'url.ext::sh.insteadOf', 'https://example.com/']), 'url.ext::sh.insteadof'],
    [
      'an include file in the working tree (which a model could write)',
      ({ repo, program }) => {
        writeFiles(repo, { 'notes.cfg': `[core]\n\tfsmonitor = ${program}\n` });
        git(owner, repo, ['config', 'include.path', '../notes.cfg']);
      },
      'core.fsmonitor',
      ['status'],
    ],
  ];

  it.each(settings)('%s', async (name, plant, setting, control) => {
    const target = planted(name.replace(/\W+/g, '-'));
    plant(target);
    for (const [tool, args] of [...READS, ...WRITES, ['git.push', { remote: 'evil' }] as const]) {
      const result = await call(tool, { path: target.repo, ...args });
      expect(result.isError, `${tool}: ${result.text}`).toBe(true);
      expect(result.text, tool).toMatch(/^COMMAND_NOT_ALLOWED/);
      expect(result.text, tool).toContain(setting);
      expect(result.text, tool).toMatch(/repository's own config/);
    }
    expect(fs.existsSync(target.marker), 'the planted program ran').toBe(false);
    // The owner's own git still sees the change untouched: nothing was staged or restored.
    expect(fs.readFileSync(path.join(target.repo, 'a.txt'), 'utf8')).toBe('a changed\n');
    if (control) {
      // The plant is real: plain git, run by the owner, does run it.
      try {
        git(owner, target.repo, control);
      } catch {
        // ls-remote and fetch fail once the program has run; the marker is what counts.
      }
      expect(fs.existsSync(target.marker), `git ${control.join(' ')} did not run the planted program`).toBe(true);
    }
  });
});

describe('hooks', () => {
  it('never run: reads work, writes are refused naming the hooks', async () => {
    const target = planted('hooked');
    for (const hook of ['pre-commit', 'post-index-change', 'reference-transaction', 'post-checkout'])
      fs.writeFileSync(path.join(target.repo, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> '${target.marker}'\n`, { mode: 0o755 });
    for (const [tool, args] of READS) {
      const result = await call(tool, { path: target.repo, ...args });
      expect(result.isError, `${tool}: ${result.text}`).toBeFalsy();
    }
    for (const [tool, args] of WRITES) {
      const result = await call(tool, { path: target.repo, ...args });
      expect(result.isError, tool).toBe(true);
      expect(result.text).toMatch(/^COMMAND_NOT_ALLOWED: the repository has active hooks \(.*pre-commit.*\)/);
    }
    expect(fs.existsSync(target.marker), 'a hook ran').toBe(false);
  });

  it("a hook in the owner's global core.hooksPath is the owner's: writes go ahead", async () => {
    const target = planted('global-hooks');
    fs.writeFileSync(path.join(target.repo, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\necho repo >> '${target.marker}'\n`, { mode: 0o755 });
    const ownerHooks = path.join(base, 'owner-hooks');
    fs.mkdirSync(ownerHooks, { recursive: true });
    const ownerMarker = path.join(root, 'owner-hook.ran');
    fs.writeFileSync(path.join(ownerHooks, 'pre-commit'), `#!/bin/sh\necho owner > '${ownerMarker}'\n`, { mode: 0o755 });
    fs.appendFileSync(path.join(owner.home, '.gitconfig'), `[core]\n\thooksPath = ${ownerHooks}\n`);
    try {
      expect((await call('git.add', { path: target.repo, paths: ['a.txt'] })).isError).toBeFalsy();
      const committed = await call('git.commit', { path: target.repo, message: 'with the owner hook' });
      expect(committed.isError, committed.text).toBeFalsy();
      expect(fs.existsSync(ownerMarker)).toBe(true);
      expect(fs.existsSync(target.marker)).toBe(false);
    } finally {
      fs.writeFileSync(path.join(owner.home, '.gitconfig'), fs.readFileSync(path.join(owner.home, '.gitconfig'), 'utf8').replace(/\[core\][^[]*$/, ''));
    }
  });
});

describe('a repository reaching outside the roots', () => {
  it('a .git file pointing outside is refused', async () => {
    const real = makeRepo(owner, path.join(outside, 'real'));
    const front = path.join(root, 'front');
    fs.mkdirSync(front);
    fs.writeFileSync(path.join(front, '.git'), `gitdir: ${path.join(real, '.git')}\n`);
    const result = await call('git.log', { path: front });
    expect(result.text).toMatch(/^PATH_NOT_ALLOWED: its git folder .*outside the allowed roots/);
  });

  it('objects borrowed from outside (alternates) are refused', async () => {
    const secret = makeRepo(owner, path.join(outside, 'secret'), { 'secret.txt': 'OUTSIDE-SECRET\n' });
    const repo = makeRepo(owner, path.join(root, 'borrower'));
    fs.writeFileSync(path.join(repo, '.git', 'objects', 'info', 'alternates'), `${path.join(secret, '.git', 'objects')}\n`);
    const hash = git(owner, secret, ['rev-parse', 'HEAD']).trim();
    const result = await call('git.show', { path: repo, revision: hash });
    expect(result.text).toMatch(/^PATH_NOT_ALLOWED: a folder it borrows objects from/);
    expect(JSON.stringify(result)).not.toContain('OUTSIDE-SECRET');
  });

  it('core.worktree pointing outside is refused', async () => {
    const repo = makeRepo(owner, path.join(root, 'worktree-out'));
    git(owner, repo, ['config', 'core.worktree', outside]);
    const result = await call('git.status', { path: repo });
    expect(result.text).toMatch(/^PATH_NOT_ALLOWED: the repository, .*outside/);
  });

  it('a repository above the roots is refused (a folder of the root that is not itself in one)', async () => {
    const repoAbove = makeRepo(owner, path.join(base, 'above'));
    const nested = path.join(repoAbove, 'nested-root');
    fs.mkdirSync(nested);
    const other = await startTestServer(
      { filesystem: { roots: [nested] }, shell: { sandbox: 'off' }, git: { read: true } },
      { adapter: createLocalAdapter({ env: owner.env }) },
    );
    const otherClient = await connectModernHttp(other.url);
    try {
      const result = textOf(await otherClient.callTool({ name: 'git.status', arguments: { path: nested } }));
      expect(result).toMatch(/^PATH_NOT_ALLOWED: the repository, .*above/);
    } finally {
      await otherClient.close();
      await other.close();
    }
  });
});

describe('remotes', () => {
  it('push and pull reach only the allowed remotes; a pull bringing a protected file changes nothing', async () => {
    const work = makeRepo(owner, path.join(root, 'remote-work'), { 'a.txt': 'a\n' });
    const allowed = makeBare(owner, allowedRemote, work);
    const denied = makeBare(owner, path.join(root, 'denied.git'), work);
    git(owner, work, ['remote', 'add', 'origin', allowed]);
    git(owner, work, ['remote', 'add', 'other', denied]);
    const refused = await call('git.push', { path: work, remote: 'other' });
    expect(refused.text).toMatch(/^COMMAND_NOT_ALLOWED: the remote other \(.*denied\.git\) is .*denied\.git: not an allowed remote \(git\.push is \[/);
    const pullRefused = await call('git.pull', { path: work, remote: 'other' });
    expect(pullRefused.text).toMatch(/not an allowed remote \(git\.pull is \[/);
    const missing = await call('git.push', { path: work, remote: 'nope' });
    expect(missing.text).toMatch(/no remote named nope \(its remotes: origin, other\)/);

    // Someone pushes a secret to the allowed remote: pulling it is refused, the working tree unchanged.
    const elsewhere = path.join(root, 'elsewhere');
    git(owner, root, ['clone', '-q', allowed, elsewhere]);
    writeFiles(elsewhere, { '.env': 'TOKEN=pushed\n', 'b.txt': 'b\n' });
    git(owner, elsewhere, ['add', '-A']);
    git(owner, elsewhere, ['commit', '-q', '-m', 'secret']);
    git(owner, elsewhere, ['push', '-q', 'origin', 'main']);
    const head = git(owner, work, ['rev-parse', 'HEAD']);
    const pulled = await call('git.pull', { path: work });
    expect(pulled.text).toMatch(/^PATH_NOT_ALLOWED: \.env is protected/);
    expect(git(owner, work, ['rev-parse', 'HEAD'])).toBe(head);
    expect(fs.existsSync(path.join(work, '.env'))).toBe(false);
    expect(fs.existsSync(path.join(work, 'b.txt'))).toBe(false);
    // Nor is what was refused kept as origin/main, for a restore to bring in.
    expect(git(owner, work, ['for-each-ref', 'refs/remotes/origin/main'])).toBe('');

    // A clone of it is refused too, and leaves nothing behind.
    const cloned = await call('git.clone', { url: allowed, destination: path.join(root, 'cloned') });
    expect(cloned.text).toMatch(/^PATH_NOT_ALLOWED: \.env is protected/);
    expect(fs.existsSync(path.join(root, 'cloned'))).toBe(false);
    const cloneDenied = await call('git.clone', { url: denied, destination: path.join(root, 'cloned2') });
    expect(cloneDenied.text).toMatch(/not an allowed remote \(git\.pull is \[/);
  });

  it('remote helpers and URLs with credentials are refused for clones', async () => {
    for (const url of [
      `ext::sh -c touch% ${path.join(root, 'ext.ran')}`,
      'https://user:token@example.com/o/r.git',
      'https://token@github.com/o/r.git',
      '--upload-pack=touch',
    ]) {
      const result = await call('git.clone', { url, destination: path.join(root, 'never') });
      expect(result.isError, url).toBe(true);
    }
    expect(fs.existsSync(path.join(root, 'ext.ran'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'never'))).toBe(false);
  });
});

describe('protected files and the local writes', () => {
  /** A repository with the owner's untracked .env, and a branch `evil` whose commit brings a .env and a private file. */
  function withEvilBranch(name: string): string {
    const repo = makeRepo(owner, path.join(root, name), { 'a.txt': 'a\n' });
    git(owner, repo, ['switch', '-q', '-c', 'evil']);
    writeFiles(repo, { '.env': 'EVIL=1\n', id_rsa: 'not yours\n' });
    git(owner, repo, ['add', '-f', '.env', 'id_rsa']);
    git(owner, repo, ['commit', '-q', '-m', 'evil']);
    git(owner, repo, ['switch', '-q', 'main']);
    writeFiles(repo, { '.env': 'OWNER_SECRET=hunter2\n' });
    return repo;
  }

  it('git.switch and git.restore never write a protected file over the owner', async () => {
    const repo = withEvilBranch('evil-branch');
    const switched = await call('git.switch', { path: repo, branch: 'evil', discardChanges: true });
    expect(switched.text).toMatch(/^PATH_NOT_ALLOWED: \.env is protected .*the git tools do not write it/);
    const restored = await call('git.restore', { path: repo, paths: ['.'], source: 'evil' });
    expect(restored.text).toMatch(/^PATH_NOT_ALLOWED: \.env is protected/);
    expect(fs.readFileSync(path.join(repo, '.env'), 'utf8')).toBe('OWNER_SECRET=hunter2\n');
    expect(fs.existsSync(path.join(repo, 'id_rsa'))).toBe(false);
    expect(git(owner, repo, ['branch', '--show-current']).trim()).toBe('main');
  });

  it('git.commit refuses a protected file a command staged, and commits nothing', async () => {
    const repo = withEvilBranch('staged-secret');
    writeFiles(repo, { 'a.txt': 'a changed\n' });
    git(owner, repo, ['add', 'a.txt']);
    // What a command the model ran could do (git.add refuses it).
    git(owner, repo, ['add', '-f', '.env']);
    const head = git(owner, repo, ['rev-parse', 'HEAD']);
    const result = await call('git.commit', { path: repo, message: 'innocent' });
    expect(result.text).toMatch(/^PATH_NOT_ALLOWED: \.env is protected .*the git tools do not commit it/);
    expect(git(owner, repo, ['rev-parse', 'HEAD'])).toBe(head);
  });
});
