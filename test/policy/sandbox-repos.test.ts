/**
 * Where the sandbox looks for repositories whose hooks and config it keeps read-only: how deep,
 * what it skips, what it reads at most, and that a command filling a root later does not push out
 * what earlier plans found.
 */
import { describe, expect, it } from 'vitest';
import {
  followed,
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
/** A repository's .git, with what git asks of one (HEAD) and a config. */
const git = (repo: string): Tree => ({ [`${repo}/.git/HEAD`]: 'file', [`${repo}/.git/config`]: 'file' });
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

  it('skips dot folders and node_modules and does not follow links', async () => {
    const tree: Tree = {
      ...git(`${ROOT}/.cache/x`),
      ...git(`${ROOT}/web/node_modules/pkg`),
      ...git('/elsewhere/repo'),
      [`${ROOT}/linked`]: '-> /elsewhere',
      [`${ROOT}/.cache/wt/.git`]: 'file',
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
    expect((await repositoriesIn(port(tree), ROOT)).sort()).toEqual([
      `${ROOT}/a/b/deep.git`,
      `${ROOT}/backup/remote.git`,
      `${ROOT}/proj/.bare`,
      dot(`${ROOT}/proj`),
    ]);
  });

  it('passes by what bwrap left where a repository was moved away from while a command started (a .git of folders and empty files, or empty), not a repository', async () => {
    const many: Tree = {};
    for (let i = 0; i < 70; i++) many[`${ROOT}/many/.git/d${i}`] = 'dir';
    const found = await repositoriesIn(
      port({
        [`${ROOT}/left/proj/.git/hooks`]: 'dir',
        [`${ROOT}/left/proj/.git/config`]: 'file',
        [`${ROOT}/left/proj/.git/.git`]: 'dir',
        // A move that fell between two mounts leaves only the later ones: the .git alone, the hooks alone, a pointer file.
        [`${ROOT}/bare/proj/.git`]: 'dir',
        [`${ROOT}/half/proj/.git/hooks`]: 'dir',
        [`${ROOT}/pointer/proj/.git/commondir`]: 'file',
        [`${ROOT}/pointer/proj/.git/modules`]: 'dir',
        // A repository with submodules and a linked worktree: their covers' mount points too.
        [`${ROOT}/nested/.git/modules/sub/hooks`]: 'dir',
        [`${ROOT}/nested/.git/modules/sub/config`]: 'file',
        [`${ROOT}/nested/.git/modules/libs/deep/hooks`]: 'dir',
        [`${ROOT}/nested/.git/worktrees/wt/gitdir`]: 'file',
        // Not passed by: a HEAD (even empty), a file with something in it, a link, more entries than bwrap would leave.
        [`${ROOT}/full/.git/hooks`]: 'dir',
        [`${ROOT}/full/.git/config`]: 'file',
        [`${ROOT}/full/.git/HEAD`]: 'file',
        [`${ROOT}/real/.git/HEAD`]: 'text:ref: refs/heads/main\n',
        [`${ROOT}/real/.git/hooks`]: 'dir',
        [`${ROOT}/real/.git/config`]: 'file',
        [`${ROOT}/kept/.git/modules/sub/hooks/pre-commit`]: 'text:#!/bin/sh\n',
        [`${ROOT}/kept/.git/config`]: 'file',
        [`${ROOT}/linked/.git/hooks`]: '-> /elsewhere/hooks',
        ...many,
      }),
      ROOT,
    );
    expect(found.sort()).toEqual(['full', 'kept', 'linked', 'many', 'real'].map((name) => dot(`${ROOT}/${name}`)));
  });

  it("passes by the empty .git the plan leaves in a bare repository (its placeholder's mount point), listed, past the depth or started in, but not one that holds more", async () => {
    const tree: Tree = {
      ...bareRepo(`${ROOT}/remote.git`),
      [`${ROOT}/remote.git/.git`]: 'dir',
      ...bareRepo(`${ROOT}/a/b/far.git`),
      [`${ROOT}/a/b/far.git/.git`]: 'dir',
      ...bareRepo(`${ROOT}/planted.git`),
      ...git(`${ROOT}/planted.git`),
      // One where an earlier command's mounts left empty hooks: passed by too.
      ...bareRepo(`${ROOT}/left.git`),
      [`${ROOT}/left.git/.git/hooks`]: 'dir',
      // Not in a bare repository either: git passes an empty .git by, and so does the walk.
      [`${ROOT}/fresh/.git`]: 'dir',
    };
    expect((await repositoriesIn(port(tree), ROOT)).sort()).toEqual(
      [`${ROOT}/a/b/far.git`, `${ROOT}/left.git`, `${ROOT}/planted.git`, dot(`${ROOT}/planted.git`), `${ROOT}/remote.git`].sort(),
    );
    const started = await repositoriesOf(port(tree), [ROOT], new RememberedRepositories(), `${ROOT}/remote.git`);
    expect(started).not.toContain(dot(`${ROOT}/remote.git`));
  });

  it(`takes each .git file it finds (a worktree's, a submodule's, --separate-git-dir's), past the depth too, at most ${MAX_GIT_FILES_PER_ROOT} a root`, async () => {
    const tree: Tree = { [`${ROOT}/app/.git`]: 'text:gitdir: ../store/app', [`${ROOT}/a/b/c/.git`]: 'file', ...git(`${ROOT}/web`) };
    expect((await repositoriesIn(port(tree), ROOT)).sort()).toEqual([`${ROOT}/a/b/c`, `${ROOT}/app`, `${ROOT}/web`].map(dot));
    const many: Tree = {};
    for (let i = 0; i < MAX_GIT_FILES_PER_ROOT + 8; i++) many[`${ROOT}/w${String(i).padStart(2, '0')}/.git`] = 'file';
    expect(await repositoriesIn(port(many), ROOT)).toHaveLength(MAX_GIT_FILES_PER_ROOT);
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
    for (let i = 0; i < MAX_REPOS_PER_ROOT; i++) tree.put(`${ROOT}/${String(i).padStart(4, '0')}/.git/HEAD`, 'file');
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

  it('puts first, for a command in a linked worktree or a submodule, the .git files from its folder up to the repository above them', async () => {
    const tree = port({
      ...git(`${ROOT}/a`),
      ...git(`${ROOT}/outer`),
      [`${ROOT}/outer/sub/src/x.ts`]: 'file',
      [`${ROOT}/outer/sub/.git`]: 'text:gitdir: ../.git/modules/sub',
      [`${ROOT}/outer/sub/src/.git`]: 'text:gitdir: /nowhere',
    });
    const order = await repositoriesOf(tree, [ROOT], new RememberedRepositories(), `${ROOT}/outer/sub/src`);
    expect(order.slice(0, 3)).toEqual([`${ROOT}/outer/sub/src`, `${ROOT}/outer/sub`, `${ROOT}/outer`].map(dot));
  });
});

describe('followed', () => {
  const at = (text: string, extra: Tree = {}) => port({ [`${ROOT}/w/.git`]: `text:${text}`, ...extra });
  const follow = (tree: ReturnType<typeof port>) => followed(tree, `${ROOT}/w/.git`, [ROOT]);

  it('reads a .git file as git does: gitdir: at its start, up to a NUL, only line ends trimmed, relative to its folder', async () => {
    const store = bareRepo(`${ROOT}/store/g`);
    expect(await follow(at(`gitdir: ${ROOT}/store/g\r\n`, store))).toBe(`${ROOT}/store/g`);
    expect(await follow(at('gitdir: ../store/g\n', store))).toBe(`${ROOT}/store/g`);
    expect(await follow(at(`gitdir: ${ROOT}/store/g\0junk`, store))).toBe(`${ROOT}/store/g`);
    expect(await follow(at(`junk\ngitdir: ${ROOT}/store/g`, store))).toBeNull();
    // A line separator other than \n is part of the path, as it is to git (a decoy at the part before it is not taken).
    const odd = `${ROOT}/store/a\u2028b`;
    expect(await follow(at(`gitdir: ${odd}`, { ...bareRepo(odd), ...bareRepo(`${ROOT}/store/a`) }))).toBe(odd);
  });

  it('takes `..` after the links before it, as the kernel does, and a commondir through a link', async () => {
    const tree = at('gitdir: lnk/../g', { [`${ROOT}/w/lnk`]: `-> ${ROOT}/.hid/deep/x`, [`${ROOT}/.hid/deep/x`]: 'dir', ...bareRepo(`${ROOT}/.hid/deep/g`) });
    expect(await follow(tree)).toBe(`${ROOT}/.hid/deep/g`);
    const worktree = at(`gitdir: ${ROOT}/main/.git/worktrees/w`, {
      [`${ROOT}/main/.git/worktrees/w/commondir`]: `-> ${ROOT}/main/common-pointer`,
      [`${ROOT}/main/common-pointer`]: 'text:../..',
      [`${ROOT}/main/.git/worktrees/w/HEAD`]: 'file',
      ...bareRepo(`${ROOT}/main/.git`),
    });
    expect(await follow(worktree)).toBe(`${ROOT}/main/.git`);
  });

  it('looks at nothing out of the roots it is given, and takes only a git folder', async () => {
    const inner = at('gitdir: /net/host/share/.git', bareRepo('/net/host/share/.git'));
    const looked: string[] = [];
    const watched = {
      ...inner,
      lstat: async (p: string) => (looked.push(p), inner.lstat(p)),
      readStart: async (p: string, n: number) => (looked.push(p), inner.readStart(p, n)),
      realpath: async (p: string) => (looked.push(p), inner.realpath(p)),
    };
    expect(await followed(watched, `${ROOT}/w/.git`, [ROOT])).toBeNull();
    expect(looked.filter((p) => !p.startsWith(ROOT))).toEqual([]);
    expect(await follow(at(`gitdir: ${ROOT}/notes`, { [`${ROOT}/notes/HEAD`]: 'file' }))).toBeNull();
  });
});
