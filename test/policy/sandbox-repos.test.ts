/**
 * Where the sandbox looks for repositories whose hooks and config it keeps read-only: how deep,
 * what it skips, what it reads at most, and that a command filling a root later does not push out
 * what earlier plans found.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_GIT_FILES_PER_ROOT,
  MAX_NAMES_PER_ROOT,
  MAX_REPO_DEPTH,
  MAX_REPOS_PER_ROOT,
  repositoriesIn,
  repositoriesOf,
} from '../../main/policy/sandbox-repos.js';
import { MAX_REPOS_REMEMBERED, RememberedRepositories } from '../../main/policy/remembered-repos.js';
import { BWRAP, LINUX_ENV } from '../helpers/sandbox-fixtures.js';
import { treePort, type Tree } from '../helpers/tree-port.js';

const ROOT = '/home/alex/code';
const git = (repo: string): Tree => ({ [`${repo}/.git/config`]: 'file' });
const dot = (repo: string) => `${repo}/.git`;
/** A bare repository's folder, as git init --bare makes it. */
const bareRepo = (folder: string): Tree => ({
  [`${folder}/HEAD`]: 'file',
  [`${folder}/objects/info`]: 'dir',
  [`${folder}/refs/heads`]: 'dir',
  [`${folder}/hooks`]: 'dir',
});
const port = (tree: Tree) => treePort({ platform: 'linux', tree: { [ROOT]: 'dir', ...tree }, env: LINUX_ENV, support: BWRAP });

/** A port that counts the names its listings read, and each folder opened as one more (as the budget does). */
function counting(tree: Tree) {
  const inner = port(tree);
  const count = { read: 0 };
  return {
    count,
    port: {
      ...inner,
      listFolders: async (dir: string, limit: number) => {
        const listed = await inner.listFolders(dir, limit);
        count.read += listed ? listed.read + 1 : 0;
        return listed;
      },
    },
  };
}

describe('repositoriesIn', () => {
  it(`finds the root's own repository and those down to ${MAX_REPO_DEPTH} folders below it, nested ones too`, async () => {
    const tree: Tree = {
      ...git(ROOT),
      ...git(`${ROOT}/app`),
      ...git(`${ROOT}/github.com/acme/tool`),
      ...git(`${ROOT}/app/vendor/lib`),
      ...git(`${ROOT}/deep/a/b/c`),
      [`${ROOT}/notes/readme.md`]: 'file',
    };
    expect((await repositoriesIn(port(tree), ROOT)).sort()).toEqual([ROOT, `${ROOT}/app`, `${ROOT}/app/vendor/lib`, `${ROOT}/github.com/acme/tool`].map(dot));
  });

  it('skips dot folders and node_modules, does not follow links, and takes a .git file that names no git folder for no repository', async () => {
    const tree: Tree = {
      ...git(`${ROOT}/.cache/x`),
      ...git(`${ROOT}/web/node_modules/pkg`),
      ...git('/elsewhere/repo'),
      [`${ROOT}/linked`]: '-> /elsewhere',
      [`${ROOT}/wt/.git`]: 'file',
      [`${ROOT}/plain/.git`]: `text:gitdir: ${ROOT}/notes`,
      [`${ROOT}/notes/HEAD`]: 'file',
      ...git(`${ROOT}/web`),
    };
    expect(await repositoriesIn(port(tree), ROOT)).toEqual([dot(`${ROOT}/web`)]);
  });

  it('finds bare repositories (objects, refs and a HEAD file), listed, kept as .bare beside worktrees, or past the depth by their .git name, and does not look into them', async () => {
    const tree: Tree = {
      ...bareRepo(`${ROOT}/backup/remote.git`),
      ...bareRepo(`${ROOT}/a/b/deep.git`),
      ...bareRepo(`${ROOT}/a/b/plain`),
      ...bareRepo(`${ROOT}/proj/.bare`),
      [`${ROOT}/proj/.git`]: 'file',
      ...git(`${ROOT}/backup/remote.git/refs/heads/x`),
      [`${ROOT}/lookalike/objects/x`]: 'dir',
      [`${ROOT}/lookalike/refs/y`]: 'dir',
    };
    expect((await repositoriesIn(port(tree), ROOT)).sort()).toEqual([`${ROOT}/a/b/deep.git`, `${ROOT}/backup/remote.git`, `${ROOT}/proj/.bare`]);
  });

  it("follows a .git file to the git folder git uses there: one made with --separate-git-dir, a submodule's, a linked worktree's repository", async () => {
    const tree: Tree = {
      // git init --separate-git-dir: the git folder deeper than the walk looks, under a name it does not look for.
      [`${ROOT}/app/.git`]: `text:gitdir: ${ROOT}/store/x/y/z/app-git`,
      ...bareRepo(`${ROOT}/store/x/y/z/app-git`),
      // A submodule's, relative to its folder, past the depth, where the walk only looks at each folder's .git.
      [`${ROOT}/p/outer/sub/.git`]: 'text:gitdir: ../.git/modules/sub\n',
      ...bareRepo(`${ROOT}/p/outer/.git/modules/sub`),
      // A linked worktree's: its own folder under the repository's .git/worktrees, whose commondir names the repository's.
      [`${ROOT}/wt/.git`]: `text:gitdir: ${ROOT}/m/n/o/main/.git/worktrees/wt\n`,
      [`${ROOT}/m/n/o/main/.git/worktrees/wt/commondir`]: 'text:../..\n',
      [`${ROOT}/m/n/o/main/.git/worktrees/wt/HEAD`]: 'file',
      ...bareRepo(`${ROOT}/m/n/o/main/.git`),
    };
    expect((await repositoriesIn(port(tree), ROOT)).sort()).toEqual([
      `${ROOT}/m/n/o/main/.git`,
      `${ROOT}/p/outer/.git`,
      `${ROOT}/p/outer/.git/modules/sub`,
      `${ROOT}/store/x/y/z/app-git`,
    ]);
    // Past the depth too, where the walk only looks at a folder's .git.
    const deep = `${ROOT}/a/b/c/d`;
    const pastDepth = port({ [`${deep}/.git`]: `text:gitdir: ${ROOT}/kept/d-git`, ...bareRepo(`${ROOT}/kept/d-git`) });
    expect(await repositoriesIn(pastDepth, ROOT)).toEqual([`${ROOT}/kept/d-git`]);
  });

  it(`follows at most ${MAX_GIT_FILES_PER_ROOT} .git files a root (each costs reads)`, async () => {
    const tree: Tree = {};
    for (let i = 0; i < MAX_GIT_FILES_PER_ROOT + 8; i++) {
      tree[`${ROOT}/w${String(i).padStart(2, '0')}/.git`] = `text:gitdir: ${ROOT}/git${i}`;
      Object.assign(tree, bareRepo(`${ROOT}/git${i}`));
    }
    const gits = await repositoriesIn(port(tree), ROOT);
    // The bare folders themselves are found by the walk; the .git files lead to them too.
    expect(gits).toHaveLength(MAX_GIT_FILES_PER_ROOT + 8);
    const followedOnly = port(
      Object.fromEntries(
        Object.entries(tree).map(([k, v]) => [k.replace(`${ROOT}/git`, '/elsewhere/git'), v.replace(`${ROOT}/git`, '/elsewhere/git')]),
      ) as Tree,
    );
    expect(await repositoriesIn(followedOnly, ROOT)).toHaveLength(MAX_GIT_FILES_PER_ROOT);
  });

  it(`reads at most ${MAX_NAMES_PER_ROOT} names per root, shallow first: past them, a folder is only looked at for its own .git`, async () => {
    // Four folders of 1,500 folders each spend the budget on the first level; z comes after them.
    const tree: Tree = {};
    for (const name of ['a', 'b', 'c', 'd']) for (let i = 0; i < 1500; i++) tree[`${ROOT}/${name}/${i}`] = 'dir';
    Object.assign(tree, git(`${ROOT}/z`), git(`${ROOT}/z/inner`));
    const { port: counted, count } = counting(tree);
    const repos = await repositoriesIn(counted, ROOT);
    expect(count.read).toBe(MAX_NAMES_PER_ROOT);
    expect(repos).toEqual([dot(`${ROOT}/z`)]);
  });

  it("takes a place it cannot look at (another user's folder, a Docker volume) for no repository, rather than failing", async () => {
    const inner = port({ ...git(`${ROOT}/ok`), [`${ROOT}/a/b/pgdata/x`]: 'dir', ...git(`${ROOT}/a/b/pgdata2`) });
    const denied = (p: string) => p.startsWith(`${ROOT}/a/b/pgdata`);
    const eacces = (p: string) => Object.assign(new Error(`EACCES: ${p}`), { code: 'EACCES' });
    const walled = {
      ...inner,
      lstat: async (p: string) => (denied(p) ? Promise.reject(eacces(p)) : inner.lstat(p)),
      listFolders: async (p: string, limit: number) => (denied(p) ? null : inner.listFolders(p, limit)),
    };
    expect(await repositoriesIn(walled, ROOT)).toEqual([dot(`${ROOT}/ok`)]);
  });

  it(`stops at ${MAX_REPOS_PER_ROOT} repositories a root`, async () => {
    let tree: Tree = {};
    for (let i = 0; i < MAX_REPOS_PER_ROOT + 20; i++) tree = { ...tree, ...git(`${ROOT}/r${i}`) };
    expect(await repositoriesIn(port(tree), ROOT)).toHaveLength(MAX_REPOS_PER_ROOT);
  });
});

describe('repositoriesOf', () => {
  it('keeps, first, what earlier plans found: filling the root with folders afterwards does not push it out', async () => {
    const deep = `${ROOT}/github.com/acme/tool`;
    const tree = port(git(deep));
    const remembered = new RememberedRepositories();
    expect(await repositoriesOf(tree, [ROOT], remembered, undefined)).toEqual([dot(deep)]);
    // A command makes thousands of folders where the walk looks first, and repositories of its own.
    for (let i = 0; i < 5000; i++) tree.put(`${ROOT}/${String(i).padStart(4, '0')}`, 'dir');
    for (let i = 0; i < MAX_REPOS_PER_ROOT; i++) tree.put(`${ROOT}/${String(i).padStart(4, '0')}/.git`, 'dir');
    expect(await repositoriesIn(tree, ROOT)).not.toContain(dot(deep));
    const now = await repositoriesOf(tree, [ROOT], remembered, undefined);
    expect(now[0]).toBe(dot(deep));
    expect(remembered.list().length).toBeLessThanOrEqual(MAX_REPOS_REMEMBERED);
    expect(await repositoriesOf(tree, [ROOT], new RememberedRepositories(), undefined)).not.toContain(dot(deep));
  });

  it('puts first the repository the command starts in (the nearest .git folder up from it, in a writable root)', async () => {
    const tree = port({ ...git(`${ROOT}/a`), ...git(`${ROOT}/b`), ...git(`${ROOT}/b/vendor/lib`), [`${ROOT}/b/src/x/file.ts`]: 'file' });
    expect(await repositoriesOf(tree, [ROOT], new RememberedRepositories(), `${ROOT}/b/src/x`)).toEqual(
      [`${ROOT}/b`, `${ROOT}/a`, `${ROOT}/b/vendor/lib`].map(dot),
    );
    expect((await repositoriesOf(tree, [ROOT], new RememberedRepositories(), `${ROOT}/b/vendor/lib`))[0]).toBe(dot(`${ROOT}/b/vendor/lib`));
    expect((await repositoriesOf(tree, [ROOT], new RememberedRepositories(), '/elsewhere/b'))[0]).toBe(dot(`${ROOT}/a`));
  });

  it('puts first, for a command in a linked worktree, the repository its .git file leads to', async () => {
    const tree = port({
      ...git(`${ROOT}/a`),
      [`${ROOT}/wt/src/x.ts`]: 'file',
      [`${ROOT}/wt/.git`]: `text:gitdir: ${ROOT}/main/.git/worktrees/wt`,
      [`${ROOT}/main/.git/worktrees/wt/commondir`]: 'text:../..',
      ...git(`${ROOT}/main`),
      [`${ROOT}/main/.git/HEAD`]: 'file',
      [`${ROOT}/main/.git/objects/pack`]: 'dir',
    });
    expect((await repositoriesOf(tree, [ROOT], new RememberedRepositories(), `${ROOT}/wt/src`))[0]).toBe(dot(`${ROOT}/main`));
    // A .git file that names no git folder does not stop the search up from the command's folder.
    tree.put(`${ROOT}/wt/src/.git`, 'text:gitdir: /nowhere');
    expect((await repositoriesOf(tree, [ROOT], new RememberedRepositories(), `${ROOT}/wt/src`))[0]).toBe(dot(`${ROOT}/main`));
  });
});
