/**
 * What the command sandbox keeps of git's code in a writable root, for the cases beyond a plain
 * .git folder: a .git file (kept as it is, and followed to its git folder), the mounts a plan may
 * spend on them, and a worktree's config.worktree where git reads one.
 */
import { describe, expect, it } from 'vitest';
import { MAX_GIT_MOUNTS, MAX_MOUNTS_PER_REPOSITORY } from '../../main/policy/git-mount-budget.js';
import { configuredWorktree } from '../../main/policy/sandbox-git.js';
import { BWRAP, GIT_IN_PROJECT, LINUX_CONFIG, LINUX_ENV, LINUX_TREE, sandboxFor } from '../helpers/sandbox-fixtures.js';
import { treePort, type Tree } from '../helpers/tree-port.js';

const P = '/home/alex/projects';
/** A git folder as git init makes it. */
const gitFolder = (folder: string): Tree => ({
  [`${folder}/HEAD`]: 'file',
  [`${folder}/config`]: 'file',
  [`${folder}/hooks`]: 'dir',
  [`${folder}/objects/info`]: 'dir',
  [`${folder}/refs/heads`]: 'dir',
});
const plan = async (tree: Tree, cwd = P) => (await sandboxFor(LINUX_CONFIG, { tree: { ...LINUX_TREE, ...tree } }).plan({ ...GIT_IN_PROJECT, cwd }))!.entries;
const shown = (entries: Awaited<ReturnType<typeof plan>>, under: string) =>
  entries.filter((e) => e.path.startsWith(under)).map((e) => `${e.access}${e.pinned ? ' pinned' : ''} ${e.path.slice(P.length)}`);

describe('a .git file in a writable root', () => {
  it('stays as it is (read-only, in a pinned folder) and its git folder is covered, wherever the root holds it', async () => {
    const entries = await plan({
      [`${P}/app/.git`]: `text:gitdir: ${P}/store/x/y/z/app-git\n`,
      ...gitFolder(`${P}/store/x/y/z/app-git`),
    });
    expect(shown(entries, `${P}/app`)).toEqual(['write pinned /app', 'read /app/.git']);
    expect(shown(entries, `${P}/store/x/y/z/app-git`)).toEqual(
      expect.arrayContaining(['write pinned /store/x/y/z/app-git', 'read /store/x/y/z/app-git/hooks', 'read /store/x/y/z/app-git/config']),
    );
    // The folders up to the root are pinned too, so neither can be moved out of the next plan's sight.
    expect(shown(entries, `${P}/store`).filter((e) => e.startsWith('write pinned'))).toContain('write pinned /store/x');
  });

  it("of a linked worktree: its repository's git folder, which the worktree's commondir names, is covered", async () => {
    const entries = await plan({
      [`${P}/wt/.git`]: `text:gitdir: ${P}/deep/a/b/c/main/.git/worktrees/wt\n`,
      [`${P}/deep/a/b/c/main/.git/worktrees/wt/commondir`]: 'text:../..\n',
      [`${P}/deep/a/b/c/main/.git/worktrees/wt/gitdir`]: 'file',
      [`${P}/deep/a/b/c/main/.git/worktrees/wt/HEAD`]: 'file',
      ...gitFolder(`${P}/deep/a/b/c/main/.git`),
    });
    expect(shown(entries, `${P}/wt`)).toEqual(['write pinned /wt', 'read /wt/.git']);
    expect(shown(entries, `${P}/deep/a/b/c/main/.git`)).toEqual(
      expect.arrayContaining(['read /deep/a/b/c/main/.git/hooks', 'read /deep/a/b/c/main/.git/config', 'read /deep/a/b/c/main/.git/worktrees/wt/commondir']),
    );
  });

  it("of a linked worktree where the walk does not look (a dot folder): kept too, as its repository's worktree gitdir names it", async () => {
    const entries = await plan({
      ...gitFolder(`${P}/main/.git`),
      [`${P}/main/.git/worktrees/feature/gitdir`]: `text:${P}/main/.worktrees/feature/.git\n`,
      [`${P}/main/.git/worktrees/feature/commondir`]: 'text:../..\n',
      [`${P}/main/.git/worktrees/feature/HEAD`]: 'file',
      [`${P}/main/.worktrees/feature/.git`]: `text:gitdir: ${P}/main/.git/worktrees/feature\n`,
      // One whose gitdir names a file out of the roots is not touched.
      [`${P}/main/.git/worktrees/away/gitdir`]: 'text:/srv/away/.git\n',
      [`${P}/main/.git/worktrees/away/HEAD`]: 'file',
      '/srv/away/.git': 'file',
    });
    expect(shown(entries, `${P}/main/.worktrees`)).toEqual([
      'write pinned /main/.worktrees',
      'write pinned /main/.worktrees/feature',
      'read /main/.worktrees/feature/.git',
    ]);
    expect(entries.some((e) => e.path.startsWith('/srv'))).toBe(false);
  });

  it("of a submodule: kept as its superproject's .git/modules names its working tree (core.worktree), past the walk's depth and the .git files a command made nearer the root, from the first plan on", async () => {
    const tree: Tree = {
      ...gitFolder(`${P}/sup/.git`),
      ...gitFolder(`${P}/sup/.git/modules/lib`),
      [`${P}/sup/.git/modules/lib/config`]: 'text:[core]\n\tbare = false\n\tworktree = ../../../vendor/deep/er/lib\n',
      [`${P}/sup/vendor/deep/er/lib/.git`]: 'text:gitdir: ../../../../.git/modules/lib\n',
    };
    // What a command leaves for the walk to find first, shallow: more .git files than a root's walk takes.
    for (let i = 0; i < 40; i++) tree[`${P}/d${i}/.git`] = 'text:gitdir: /nowhere\n';
    const entries = await plan(tree);
    expect(shown(entries, `${P}/sup/vendor/deep/er/lib/.git`)).toEqual(['read /sup/vendor/deep/er/lib/.git']);
  });

  it('a remembered repository a folder above was renamed away from (by a program the model started) is covered where it went, past the walk', async () => {
    const tree: Tree = { ...LINUX_TREE, ...gitFolder(`${P}/a/proj/.git`) };
    const port = treePort({ platform: 'linux', tree, env: LINUX_ENV, support: BWRAP });
    const policy = sandboxFor(LINUX_CONFIG, { port });
    const covered = async (under: string) => shown((await policy.plan(GIT_IN_PROJECT))!.entries, under);
    expect(await covered(`${P}/a/proj/.git/hooks`)).toEqual(['read /a/proj/.git/hooks']);
    // Deeper than the walk looks: only the hold on it still knows where it is.
    port.move(`${P}/a`, `${P}/t/x/y/z/a`);
    expect(await covered(`${P}/t/x/y/z/a/proj/.git/hooks`)).toEqual(['read /t/x/y/z/a/proj/.git/hooks']);
  });

  describe('a remembered repository a program renames while the plan looks', () => {
    /** A policy that has remembered P/a/proj, over a port whose lstat of a remembered place first lets `during` run. */
    const planning = async (during: (port: ReturnType<typeof treePort>, asked: string) => void) => {
      const inner = treePort({ platform: 'linux', tree: { ...LINUX_TREE, ...gitFolder(`${P}/a/proj/.git`) }, env: LINUX_ENV, support: BWRAP });
      let armed = false;
      const port = {
        ...inner,
        lstat: async (p: string) => {
          if (armed && p.endsWith('/proj/.git')) during(inner, p);
          return inner.lstat(p);
        },
      };
      const policy = sandboxFor(LINUX_CONFIG, { port });
      await policy.plan(GIT_IN_PROJECT);
      armed = true;
      return policy.plan(GIT_IN_PROJECT);
    };

    it('is asked again where it went, and covered there', async () => {
      let moves = 0;
      const plan = await planning((port, asked) => moves++ === 0 && port.move(asked.slice(0, -'/proj/.git'.length), `${P}/t/x/y/z/a`));
      expect(shown(plan!.entries, `${P}/t/x/y/z/a/proj/.git/hooks`)).toEqual(['read /t/x/y/z/a/proj/.git/hooks']);
    });

    it('is followed by its hold, not by its old name, when something else is there by the time the plan looks', async () => {
      let moves = 0;
      const plan = await planning((port, asked) => {
        if (moves++ > 0) return;
        port.move(asked.slice(0, -'/proj/.git'.length), `${P}/t/x/y/z/a`);
        // What bwrap makes at the old place when the move falls during a command's mounts (or another repository).
        for (const [name, kind] of [
          ['hooks', 'dir'],
          ['config', 'file'],
        ] as const)
          port.put(`${asked}/${name}`, kind);
      });
      expect(shown(plan!.entries, `${P}/t/x/y/z/a/proj/.git/hooks`)).toEqual(['read /t/x/y/z/a/proj/.git/hooks']);
    });

    it('refuses the command when it moves after it was found, before the plan is made of it (nothing of it dropped)', async () => {
      const inner = treePort({ platform: 'linux', tree: { ...LINUX_TREE, ...gitFolder(`${P}/a/proj/.git`) }, env: LINUX_ENV, support: BWRAP });
      let armed = false;
      const port = {
        ...inner,
        // The plan's last look at every place it mounts (the home folder first): the repository is renamed just before.
        locateAll: async (paths: readonly string[]) => {
          if (armed && paths[0] === LINUX_ENV.HOME && paths.some((p) => p.endsWith('/proj/.git/hooks'))) {
            armed = false;
            inner.move(`${P}/a`, `${P}/b`);
          }
          return inner.locateAll(paths);
        },
      };
      const policy = sandboxFor(LINUX_CONFIG, { port });
      armed = true;
      await expect(policy.plan(GIT_IN_PROJECT)).rejects.toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: expect.stringContaining(`${P}/a/proj/.git was moved while the command was starting`),
      });
      expect(armed).toBe(false);
    });

    it('refuses the command when it never stays put (a plan without it would leave its hooks open)', async () => {
      let n = 0;
      const plan = planning((port, asked) => port.move(asked.slice(0, -'/proj/.git'.length), `${P}/m${n++}`));
      await expect(plan).rejects.toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: expect.stringContaining('kept being moved while the command was starting'),
      });
    });
  });

  it("reads a submodule's working tree from its config's core section only", () => {
    expect(configuredWorktree('[core]\n\tworktree = ../../../lib\n')).toBe('../../../lib');
    expect(configuredWorktree('[Core]\n  WorkTree="../a b"\n')).toBe('../a b');
    expect(configuredWorktree('[remote "origin"]\n\tworktree = ../x\n[core]\n\tbare = false\n')).toBeNull();
    expect(configuredWorktree(null)).toBeNull();
  });

  it('of a linked worktree: found among empty folders in .git/worktrees, and kept after its gitdir can no longer be read (remembered)', async () => {
    const tree: Tree = { ...LINUX_TREE, ...gitFolder(`${P}/main/.git`) };
    for (let i = 0; i < 200; i++) tree[`${P}/main/.git/worktrees/x${String(i).padStart(3, '0')}`] = 'dir';
    tree[`${P}/main/.git/worktrees/feat/gitdir`] = `text:${P}/main/.worktrees/feat/.git\n`;
    tree[`${P}/main/.worktrees/feat/.git`] = `text:gitdir: ${P}/main/.git/worktrees/feat\n`;
    const port = treePort({ platform: 'linux', tree, env: LINUX_ENV, support: BWRAP });
    const policy = sandboxFor(LINUX_CONFIG, { port });
    const kept = async () => shown((await policy.plan(GIT_IN_PROJECT))!.entries, `${P}/main/.worktrees/feat/.git`);
    expect(await kept()).toEqual(['read /main/.worktrees/feat/.git']);
    // A command fills .git/worktrees past what a plan reads (here: its gitdir is gone): the file found before stays kept.
    port.remove(`${P}/main/.git/worktrees/feat`);
    expect(await kept()).toEqual(['read /main/.worktrees/feat/.git']);
  });

  it('of a worktree whose gitdir names a file in a read-only root nested in the writable one, or a link to one: nothing there made writable', async () => {
    const entries = await plan({
      ...gitFolder(`${P}/evil/.git`),
      [`${P}/evil/.git/worktrees/a/gitdir`]: `text:${P}/l/.git\n`,
      [`${P}/evil/.git/worktrees/a/HEAD`]: 'file',
      [`${P}/l/.git`]: `-> ${P}/vendor/lib/README`,
      [`${P}/vendor/lib/README`]: 'file',
      [`${P}/evil/.git/worktrees/b/gitdir`]: `text:${P}/vendor/lib/sub/.git\n`,
      [`${P}/evil/.git/worktrees/b/HEAD`]: 'file',
      [`${P}/vendor/lib/sub/.git`]: 'file',
    });
    expect(entries.filter((e) => e.access === 'write' && e.path.startsWith(`${P}/vendor/`))).toEqual([]);
    expect(entries.filter((e) => e.path.startsWith(`${P}/l`))).toEqual([]);
  });

  it('is kept as it is even when it names no git folder, or one out of the writable roots, which is not looked into', async () => {
    const entries = await plan({
      [`${P}/odd/.git`]: 'text:garbage',
      [`${P}/out/.git`]: 'text:gitdir: /srv/elsewhere/.git',
      ...gitFolder('/srv/elsewhere/.git'),
    });
    expect(shown(entries, `${P}/odd`)).toEqual(['write pinned /odd', 'read /odd/.git']);
    expect(shown(entries, `${P}/out`)).toEqual(['write pinned /out', 'read /out/.git']);
    expect(entries.some((e) => e.path.startsWith('/srv'))).toBe(false);
  });
});

describe('the mounts a plan spends on git', () => {
  it(`stay within ${MAX_GIT_MOUNTS}: a git folder named deep below the root is left out, the repositories after it are still covered`, async () => {
    const deep = `${P}/.c/${Array.from({ length: 1500 }, () => 'a').join('/')}`;
    const entries = await plan({
      [`${P}/p1/.git`]: `text:gitdir: ${deep}`,
      ...gitFolder(deep),
      ...gitFolder(`${P}/tool/.git`),
    });
    const gitEntries = entries.filter((e) => e.path.startsWith(`${P}/`) && e.path !== P);
    expect(gitEntries.length).toBeLessThanOrEqual(MAX_GIT_MOUNTS);
    expect(entries.some((e) => e.path === `${deep}/hooks`)).toBe(false);
    expect(shown(entries, `${P}/tool/.git`)).toEqual(expect.arrayContaining(['read /tool/.git/hooks', 'read /tool/.git/config']));
    // The .git file itself still cannot be pointed elsewhere.
    expect(shown(entries, `${P}/p1`)).toEqual(['write pinned /p1', 'read /p1/.git']);
  });

  it(`are at most ${MAX_MOUNTS_PER_REPOSITORY} for one repository: one made deep, where the command starts, does not take the others' (their hooks stay covered)`, async () => {
    const deep = `${P}/.x/${Array.from({ length: 250 }, () => 'a').join('/')}`;
    const tree: Tree = { ...gitFolder(`${deep}/.git`) };
    for (let i = 1; i <= 5; i++) Object.assign(tree, gitFolder(`${P}/proj${i}/.git`));
    const entries = await plan(tree, deep);
    for (let i = 1; i <= 5; i++) expect(shown(entries, `${P}/proj${i}/.git/hooks`)).toEqual([`read /proj${i}/.git/hooks`]);
    expect(entries.some((e) => e.path === `${deep}/.git/hooks`)).toBe(false);
    // Nor does a chain of folders deep inside one's .git/modules: that repository's modules are sealed, the rest covered.
    const chained: Tree = { ...tree, [`${P}/proj1/.git/modules/c/${Array.from({ length: 245 }, () => 'a').join('/')}/HEAD`]: 'file' };
    const after = await plan(chained);
    expect(shown(after, `${P}/proj1/.git/modules`)).toEqual(['read /proj1/.git/modules']);
    for (let i = 1; i <= 5; i++) expect(shown(after, `${P}/proj${i}/.git/hooks`)).toEqual([`read /proj${i}/.git/hooks`]);
  });

  it('are at most an eighth of the argument bytes for one repository: a chain of long names in .git/modules does not take the rest', async () => {
    const long = (i: number) => `${String(i)}${'n'.repeat(249)}`;
    const chain = Array.from({ length: 15 }, (_, i) => long(i)).join('/');
    const tree: Tree = { ...gitFolder(`${P}/evil/.git`) };
    for (let m = 0; m < 8; m++) tree[`${P}/evil/.git/modules/${chain}/m${m}/HEAD`] = 'file';
    for (let i = 1; i <= 3; i++) Object.assign(tree, gitFolder(`${P}/proj${i}/.git`));
    const entries = await plan(tree, `${P}/evil`);
    for (let i = 1; i <= 3; i++) expect(shown(entries, `${P}/proj${i}/.git/hooks`)).toEqual([`read /proj${i}/.git/hooks`]);
    expect(shown(entries, `${P}/evil/.git/modules`)).toEqual(['read /evil/.git/modules']);
  });

  it('cover every repository sealed before any whole: costly ones first in line leave the rest their hooks and config', async () => {
    const tree: Tree = {};
    for (let r = 0; r < 8; r++) {
      Object.assign(tree, gitFolder(`${P}/r${r}/.git`));
      // 12 submodules each: about 37 mounts whole; seven of them would fill the plan.
      for (let m = 0; m < 12; m++) Object.assign(tree, gitFolder(`${P}/r${r}/.git/modules/m${m}`));
    }
    for (let i = 1; i <= 20; i++) Object.assign(tree, gitFolder(`${P}/plain${i}/.git`));
    const entries = await plan(tree, `${P}/r0`);
    expect(entries.filter((e) => /\/(r\d|plain\d+)\/\.git\/hooks$/.test(e.path))).toHaveLength(28);
    // Those the budget had room for are whole: their submodules' hooks covered one by one, in the plan's order.
    expect(shown(entries, `${P}/r0/.git/modules/m0/hooks`)).toEqual(['read /r0/.git/modules/m0/hooks']);
    expect(shown(entries, `${P}/r7/.git/modules`)).toEqual(['read /r7/.git/modules']);
    expect(entries.filter((e) => e.path.startsWith(`${P}/`)).length).toBeLessThanOrEqual(MAX_GIT_MOUNTS);
  });

  it('go to every repository before any .git file: worktree .git files a repository names, deep or many, leave the others covered', async () => {
    const tree: Tree = { ...gitFolder(`${P}/evil/.git`), ...gitFolder(`${P}/proj/.git`) };
    for (let w = 1; w <= 15; w++) {
      const at = w <= 5 ? `${P}/evil/.c${w}/${Array.from({ length: 44 }, () => 'd').join('/')}` : `${P}/evil/.s${w}`;
      tree[`${P}/evil/.git/worktrees/w${w}/gitdir`] = `text:${at}/.git\n`;
      tree[`${at}/.git`] = 'text:gitdir: /nowhere';
    }
    // A gitdir naming a place out of the roots, or one the server cannot look at, is passed by: commands still run.
    tree[`${P}/evil/.git/worktrees/far/gitdir`] = 'text:/proc/1/cwd/.git\n';
    const entries = await plan(tree, `${P}/evil`);
    expect(shown(entries, `${P}/proj/.git/hooks`)).toEqual(['read /proj/.git/hooks']);
    expect(entries.filter((e) => e.path.startsWith(`${P}/`)).length).toBeLessThanOrEqual(MAX_GIT_MOUNTS);
    expect(entries.some((e) => e.path.startsWith('/proc/1'))).toBe(false);
    // The shallow ones are kept; one 46 folders deep is past what a .git file alone may take.
    expect(shown(entries, `${P}/evil/.s6/.git`)).toEqual(['read /evil/.s6/.git']);
    expect(entries.some((e) => e.path.startsWith(`${P}/evil/.c1/`))).toBe(false);
  });

  it("keep room for .git files: repositories of a command's own, filling the plan, do not leave a worktree's .git file open", async () => {
    const tree: Tree = {
      ...gitFolder(`${P}/proj/.git`),
      [`${P}/proj/.git/worktrees/feat/gitdir`]: `text:${P}/proj/.worktrees/feat/.git\n`,
      [`${P}/proj/.worktrees/feat/.git`]: `text:gitdir: ${P}/proj/.git/worktrees/feat\n`,
    };
    for (let i = 10; i <= 40; i++) {
      Object.assign(tree, gitFolder(`${P}/z${i}/b/c/d/e/.git`));
      tree[`${P}/z${i}/b/c/d/e/.git/modules/x`] = 'dir';
      tree[`${P}/z${i}/b/c/d/e/.git/worktrees/y`] = 'dir';
    }
    const entries = await plan(tree);
    expect(shown(entries, `${P}/proj/.worktrees/feat/.git`)).toEqual(['read /proj/.worktrees/feat/.git']);
  });

  it('keep .git files as they are past the 32 repositories a plan covers', async () => {
    const tree: Tree = {};
    for (let i = 0; i < 40; i++) Object.assign(tree, gitFolder(`${P}/r${String(i).padStart(2, '0')}/.git`));
    tree[`${P}/wt/.git`] = `text:gitdir: ${P}/r00/.git/worktrees/wt`;
    // A .git file alone does not count as one of them: here it comes first, the command starting beside it.
    const entries = await plan(tree, `${P}/wt`);
    expect(entries.filter((e) => e.path.endsWith('/.git/hooks'))).toHaveLength(32);
    expect(shown(entries, `${P}/wt`)).toEqual(['write pinned /wt', 'read /wt/.git']);
  });

  it("seal a repository's .git/modules whole when its submodules would take more than fit", async () => {
    const tree: Tree = { ...gitFolder(`${P}/big/.git`) };
    for (let m = 0; m < 200; m++) tree[`${P}/big/.git/modules/m${m}/HEAD`] = 'file';
    const entries = await plan(tree);
    expect(shown(entries, `${P}/big/.git/modules`)).toEqual(['read /big/.git/modules']);
    expect(shown(entries, `${P}/big/.git`)).toEqual(expect.arrayContaining(['read /big/.git/hooks', 'read /big/.git/config']));
  });
});

describe("a worktree's config.worktree", () => {
  it('is read-only, and an empty read-only one takes the place of a missing one, where the repository turns worktreeConfig on', async () => {
    const tree: Tree = {
      ...gitFolder(`${P}/main/.git`),
      [`${P}/main/.git/config`]: 'text:[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n',
      [`${P}/main/.git/config.worktree`]: 'file',
      [`${P}/main/.git/worktrees/wt/commondir`]: 'text:../..',
      [`${P}/main/.git/worktrees/wt/HEAD`]: 'file',
    };
    const entries = await plan(tree);
    expect(shown(entries, `${P}/main/.git/config.worktree`)).toEqual(['read /main/.git/config.worktree']);
    expect(shown(entries, `${P}/main/.git/worktrees/wt/config.worktree`)).toEqual(['hidden /main/.git/worktrees/wt/config.worktree']);
    // A submodule's own config turning it on: its config.worktree too (its .git/modules folder is not read-only whole then).
    const submodule: Tree = {
      ...gitFolder(`${P}/sup/.git`),
      ...gitFolder(`${P}/sup/.git/modules/.vendor/lib`),
      [`${P}/sup/.git/modules/.vendor/lib/config`]: 'text:[extensions]\n\tworktreeConfig = true\n',
    };
    expect(shown(await plan(submodule), `${P}/sup/.git/modules/.vendor/lib/config.worktree`)).toEqual(['hidden /sup/.git/modules/.vendor/lib/config.worktree']);
    // Without worktreeConfig git reads none: no mount for one.
    const plain = await plan({ ...gitFolder(`${P}/main/.git`), [`${P}/main/.git/worktrees/wt/HEAD`]: 'file' });
    expect(plain.some((e) => e.path.endsWith('config.worktree'))).toBe(false);
  });
});
