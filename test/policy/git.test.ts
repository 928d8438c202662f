/** The git policy over a written-down filesystem and a stub repository probe: places, settings, hooks, remotes, paths. */
import { describe, expect, it } from 'vitest';
import type { GitConfigEntry, RepositoryFacts } from '../../adapter/contract/git.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { GitPolicy, type GitUse } from '../../main/policy/git.js';
import type { ProgramRunner } from '../../main/policy/program-runner.js';
import { makeConfig } from '../helpers/servers.js';
import { treePort, type Tree } from '../helpers/tree-port.js';
import { BWRAP, LINUX_ENV } from '../helpers/sandbox-fixtures.js';

const TREE: Tree = {
  '/home/alex/projects/app/.git/config': 'file',
  '/home/alex/projects/app/src/a.ts': 'file',
  '/home/alex/projects/app/.env': 'file',
  '/home/alex/projects/app/escape': '-> /home/alex/secret',
  '/home/alex/secret/notes.txt': 'file',
  '/home/alex/projects/remote.git': 'dir',
  '/home/alex/projects/link.git': '-> /home/alex/projects/remote.git',
  '/srv/other.git': 'dir',
};
const APP = '/home/alex/projects/app';
const entry = (key: string, value: string, scope: GitConfigEntry['scope'] = 'local'): GitConfigEntry => ({ scope, origin: 'file:.git/config', key, value });

function policy(facts: Partial<RepositoryFacts>, git: Record<string, unknown> = {}, more: Tree = {}) {
  const config = makeConfig({ filesystem: { write: true, roots: ['/home/alex/projects'] }, git: { read: true, write: true, ...git } });
  const port = treePort({ platform: 'linux', tree: { ...TREE, ...more }, env: LINUX_ENV, support: BWRAP });
  const files = new FilesystemPolicy(config.filesystem, port);
  const full: RepositoryFacts = {
    topLevel: APP,
    gitDir: `${APP}/.git`,
    commonDir: `${APP}/.git`,
    config: [],
    hooksDir: `${APP}/.git/hooks`,
    hooks: [],
    alternates: [],
    ...facts,
  };
  const programs = { helper: async () => ({ file: '/usr/bin/git', env: { PATH: '/usr/bin' } }) } as unknown as ProgramRunner;
  // A remote (a bare name.git) probed is its own git folder, with the rest of the facts given.
  const probe = async (dir: string) => (dir.endsWith('.git') ? { ...full, topLevel: null, gitDir: dir, commonDir: dir } : full);
  return new GitPolicy(config, files, programs, { realpath: port.realpath, lstat: port.lstat, listNames: port.listNames, gitRepository: probe });
}

const open = (p: GitPolicy, use: GitUse = 'read') => p.open({ path: APP, use, operation: 'git.test' });

describe('GitPolicy.open', () => {
  it('plans git in the top level with the overrides, and hides protected paths from answers', async () => {
    const target = await open(policy({}));
    expect(target.run).toMatchObject({ file: '/usr/bin/git', cwd: APP, timeoutMs: 120_000 });
    expect(target.run.config).toEqual(expect.arrayContaining(['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'submodule.recurse=false']));
    expect(target.run.visible('src/a.ts')).toBe(true);
    expect(target.run.visible('.env')).toBe(false);
    expect(target.run.visible('deep/id_rsa')).toBe(false);
  });

  it('pins the git folder it checked: a .git file rewritten after the check cannot send git elsewhere', async () => {
    const gitDir = `${APP}/.git/worktrees/feature`;
    const target = await open(policy({ gitDir }));
    expect(target.run.env).toMatchObject({ PATH: '/usr/bin', GIT_DIR: gitDir, GIT_WORK_TREE: APP });
  });

  it("keeps the owner's global hooksPath", async () => {
    const target = await open(policy({ config: [entry('core.hookspath', '/home/alex/hooks', 'global')] }));
    expect(target.run.config.some((c) => c.startsWith('core.hooksPath'))).toBe(false);
  });

  it.each([
    ['its git folder', { gitDir: '/home/alex/secret/.git' }],
    ['its shared git folder', { commonDir: '/srv/other.git' }],
    ['a folder it borrows objects from', { alternates: ['/home/alex/secret/objects'] }],
    ['the repository', { topLevel: '/home/alex/secret' }],
  ])('refuses %s outside the roots', async (what, facts) => {
    await expect(open(policy(facts))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED', message: expect.stringContaining(what) });
  });

  it("refuses a setting of the repository's own that names a program, naming it", async () => {
    await expect(open(policy({ config: [entry('core.fsmonitor', '/x.sh')] }))).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringMatching(/^core\.fsmonitor is set by the repository's own config \(\.git\/config\)/),
      details: { setting: 'core.fsmonitor' },
    });
    await expect(open(policy({ config: [entry('core.fsmonitor', '/x.sh', 'global')] }))).resolves.toBeDefined();
  });

  it('refuses active hooks for writes, not for reads', async () => {
    const hooked = policy({ hooks: ['pre-commit'] });
    await expect(open(hooked)).resolves.toBeDefined();
    await expect(open(hooked, 'write')).rejects.toMatchObject({ message: expect.stringMatching(/active hooks \(pre-commit in .*\.git\/hooks\)/) });
  });

  it('bare repositories have no working tree', async () => {
    await expect(open(policy({ topLevel: null }))).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });
});

describe('remotes', () => {
  const remotes = (push: string[], fetch = push) => ({ remotes: [{ name: 'origin', fetch, push }] });

  it('allows a remote by identity, whatever the spelling', async () => {
    const p = policy(remotes(['git@github.com:alex/app.git']), { push: ['https://github.com/alex/app'] });
    await expect(open(p, { push: 'origin' })).resolves.toBeDefined();
  });

  it('checks every push URL (pushurl), not the fetch URL', async () => {
    const p = policy(remotes(['https://github.com/alex/app', 'https://github.com/evil/app'], ['https://github.com/alex/app']), { push: ['alex/app'] });
    await expect(open(p, { push: 'origin' })).rejects.toMatchObject({
      message: expect.stringMatching(/github\.com\/evil\/app: not an allowed remote \(git\.push is \[/),
    });
  });

  it('compares local repositories by where they really are, and takes a remote URL only where it really is', async () => {
    // The owner's list may name one through a link...
    const p = policy(remotes(['/home/alex/projects/remote.git']), { pull: ['/home/alex/projects/link.git'], push: [] });
    await expect(open(p, { pull: 'origin' })).resolves.toBeDefined();
    // ...a URL may not: git reads it again inside the sandbox, where a link can lead elsewhere.
    await expect(
      open(policy(remotes(['/home/alex/projects/link.git']), { pull: ['/home/alex/projects/remote.git'], push: [] }), { pull: 'origin' }),
    ).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringMatching(
        /link\.git leads through a link to \/home\/alex\/projects\/remote\.git: point the remote at the repository where it really is/,
      ),
    });
    await expect(open(policy(remotes(['/srv/other.git']), { pull: ['/home/alex/projects/remote.git'] }), { pull: 'origin' })).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
    });
  });

  it("turns the other side's hooks and programs off where the remote is a local repository a tool could have written, and only there", async () => {
    const local = await open(policy(remotes(['/home/alex/projects/remote.git']), { push: ['/home/alex/projects/remote.git'] }), { push: 'origin' });
    expect(local.run.config).toContain(
      "remote.origin.receivepack='/usr/bin/git' -c core.hooksPath=/dev/null -c core.alternateRefsCommand=true -c core.fsmonitor=false -c receive.autogc=false -c receive.denyCurrentBranch=refuse -c receive.procReceiveRefs= receive-pack",
    );
    const pulled = await open(policy(remotes(['/home/alex/projects/remote.git']), { pull: ['/home/alex/projects/remote.git'] }), { pull: 'origin' });
    expect(pulled.run.config.find((c) => c.startsWith('remote.origin.uploadpack='))).toMatch(/ upload-pack$/);
    const hosted = await open(policy(remotes(['https://github.com/alex/app']), { push: ['alex/app'] }), { push: 'origin' });
    expect(hosted.run.config.some((c) => c.startsWith('remote.'))).toBe(false);
    // A clone sets its own upload-pack: it is given on its command line (adapter/git/network-ops.ts).
    const cloned = await policy({}, { pull: ['/home/alex/projects/remote.git'] }).clone(
      '/home/alex/projects/remote.git',
      '/home/alex/projects/copy',
      'git.clone',
    );
    expect(cloned.run.uploadPack).toMatch(/^'\/usr\/bin\/git' -c core\.hooksPath=\/dev\/null .* upload-pack$/);
  });

  it('refuses a local remote holding a .git of its own, but for the empty folder the command sandbox leaves there (git passes it by)', async () => {
    const remote = '/home/alex/projects/remote.git';
    const push = (more: Tree) => open(policy(remotes([remote]), { push: [remote] }, more), { push: 'origin' });
    await expect(push({ [`${remote}/.git`]: 'dir' })).resolves.toBeDefined();
    for (const planted of [{ [`${remote}/.git`]: 'text:gitdir: /home/alex/projects/evil.git' }, { [`${remote}/.git/HEAD`]: 'file' }] as Tree[])
      await expect(push(planted)).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED', message: expect.stringContaining('holds a .git of its own') });
  });

  it('names the remotes there are', async () => {
    await expect(open(policy(remotes(['x/y'])), { push: 'upstream' })).rejects.toMatchObject({
      message: expect.stringMatching(/no remote named upstream \(its remotes: origin\)/),
    });
    await expect(open(policy(remotes(['x/y'])), { push: '--exec=x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('GitPolicy.open of a file', () => {
  it('says to give the repository as path and the file in paths', async () => {
    await expect(policy({}).open({ path: `${APP}/src/a.ts`, use: 'read', operation: 'git.log' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/src\/a\.ts is a file: give the repository \(or a folder in it\) as path, and files in paths/),
    });
  });
});

describe('GitPolicy.paths', () => {
  it('takes paths relative to the top level (or absolute) through the filesystem policy', async () => {
    const p = policy({});
    const target = await open(p, 'write');
    expect(await p.paths(target, ['src/a.ts', `${APP}/src`, '.', 'new/file.txt'], 'write', 'git.add')).toEqual(['src/a.ts', 'src', '.', 'new/file.txt']);
    await expect(p.paths(target, ['.env'], 'write', 'git.add')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(p.paths(target, ['../remote.git/HEAD'], 'write', 'git.add')).rejects.toMatchObject({
      message: expect.stringMatching(/outside the repository/),
    });
    await expect(p.paths(target, ['escape/notes.txt'], 'write', 'git.add')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(p.paths(target, ['.git/HEAD'], 'read', 'git.diff')).rejects.toMatchObject({ message: expect.stringMatching(/inside the git folder/) });
  });

  it('refuses reported paths the rules protect', async () => {
    const p = policy({});
    const target = await open(p);
    expect(() => p.checkReported(target, ['src/a.ts'], 'write', 'git.pull')).not.toThrow();
    expect(() => p.checkReported(target, ['src/a.ts', 'config/.env'], 'write', 'git.pull')).toThrow(/config\/\.env is protected/);
    expect(() => p.checkReported(target, ['.git/hooks/pre-commit'], 'write', 'git.pull')).toThrow(/protected/);
  });
});
