/** The repository probe on real repositories: folders, settings by scope, hooks, alternates, remotes; and that it runs nothing. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRemotes, probeRepository } from '../../../adapter/git/probe.js';
import { git, gitHome, makeRepo, type GitHome } from '../../helpers/git-repos.js';
import { makeTempDir, removeDir } from '../../helpers/temp.js';

let base: string;
let owner: GitHome;
let program: { file: string; env: Record<string, string> };

beforeAll(() => {
  base = makeTempDir();
  owner = gitHome(path.join(base, 'home'));
  program = { file: '/usr/bin/git', env: { PATH: process.env.PATH!, HOME: owner.home, LC_ALL: 'C' } };
});
afterAll(() => removeDir(base));

describe('probeRepository', () => {
  it('finds the folders from inside a subfolder, with every setting and its scope', async () => {
    const repo = makeRepo(owner, path.join(base, 'plain'), { 'src/a.txt': 'a\n' });
    git(owner, repo, ['config', 'core.fsmonitor', path.join(base, 'never-run.sh')]);
    const facts = await probeRepository(path.join(repo, 'src'), program);
    expect(facts).toMatchObject({ topLevel: repo, gitDir: path.join(repo, '.git'), commonDir: path.join(repo, '.git'), hooks: [], alternates: [] });
    expect(facts!.config).toContainEqual({ scope: 'global', origin: `file:${path.join(owner.home, '.gitconfig')}`, key: 'user.name', value: 'Test Owner' });
    expect(facts!.config).toContainEqual({ scope: 'local', origin: 'file:.git/config', key: 'core.fsmonitor', value: path.join(base, 'never-run.sh') });
    expect(facts!.remotes).toBeUndefined();
  });

  it('is null outside any repository', async () => {
    const lonely = path.join(base, 'lonely');
    fs.mkdirSync(lonely);
    // A ceiling keeps git from finding a repository above the temp folder.
    expect(await probeRepository(lonely, { ...program, env: { ...program.env, GIT_CEILING_DIRECTORIES: base } })).toBeNull();
  });

  it("reports a linked worktree's own and shared git folders, and a bare repository", async () => {
    const repo = makeRepo(owner, path.join(base, 'main-tree'));
    const linked = path.join(base, 'linked');
    git(owner, repo, ['worktree', 'add', '-q', linked]);
    const facts = await probeRepository(linked, program);
    expect(facts).toMatchObject({ topLevel: linked, gitDir: path.join(repo, '.git', 'worktrees', 'linked'), commonDir: path.join(repo, '.git') });
    const bare = path.join(base, 'bare.git');
    git(owner, base, ['init', '-q', '--bare', bare]);
    expect(await probeRepository(bare, program)).toMatchObject({ topLevel: null, gitDir: bare });
  });

  it('lists active hooks only (a hook name, executable), and borrowed object folders', async () => {
    const repo = makeRepo(owner, path.join(base, 'hooks'));
    const hooks = path.join(repo, '.git', 'hooks');
    fs.writeFileSync(path.join(hooks, 'pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(hooks, 'post-merge'), '#!/bin/sh\n', { mode: 0o644 });
    fs.writeFileSync(path.join(hooks, 'not-a-hook'), '#!/bin/sh\n', { mode: 0o755 });
    const other = makeRepo(owner, path.join(base, 'lender'));
    const third = makeRepo(owner, path.join(base, 'lender2'));
    fs.writeFileSync(path.join(repo, '.git', 'objects', 'info', 'alternates'), `# comment\n${path.join(other, '.git', 'objects')}\n`);
    fs.writeFileSync(path.join(other, '.git', 'objects', 'info', 'alternates'), `../../../lender2/.git/objects\n`);
    const facts = await probeRepository(repo, program);
    expect(facts!.hooks).toEqual(['pre-commit']);
    expect(facts!.alternates).toEqual([path.join(other, '.git', 'objects'), path.join(third, '.git', 'objects')]);
  });

  it("reports remotes as git uses them (the owner's insteadOf applied), and runs none of the settings it reads", async () => {
    const repo = makeRepo(owner, path.join(base, 'remotes'));
    const marker = path.join(base, 'probe.ran');
    const evil = path.join(base, 'evil.sh');
    fs.writeFileSync(evil, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    git(owner, repo, ['config', 'url.https://github.com/.insteadOf', 'gh:']);
    git(owner, repo, ['remote', 'add', 'origin', 'gh:o/r']);
    for (const [key, value] of [
      ['core.fsmonitor', evil],
      ['core.sshCommand', evil],
      ['credential.helper', `!${evil}`],
      ['remote.x.url', `ext::${evil}`],
    ])
      git(owner, repo, ['config', key!, value!]);
    const facts = await probeRepository(repo, program, { remotes: true });
    expect(facts!.remotes).toEqual([
      { name: 'origin', fetch: ['https://github.com/o/r'], push: ['https://github.com/o/r'] },
      { name: 'x', fetch: [`ext::${evil}`], push: [`ext::${evil}`] },
    ]);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('parseRemotes', () => {
  it('groups fetch and push URLs by remote', () => {
    expect(parseRemotes('a\thttps://h/x (fetch)\na\tssh://h/y (push)\na\tssh://h/z (push)\n')).toEqual([
      { name: 'a', fetch: ['https://h/x'], push: ['ssh://h/y', 'ssh://h/z'] },
    ]);
  });
});
