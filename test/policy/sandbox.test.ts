/**
 * The command sandbox's plan, on written-down Linux and macOS filesystems: which paths become
 * temp, hidden, readable and writable, in which order, and what the server refuses at start.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxPlan, SandboxSupport } from '../../adapter/contract/sandbox.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { FilesystemPolicy } from '../../main/policy/filesystem.js';
import { SandboxPolicy, SandboxUnavailableError } from '../../main/policy/sandbox.js';
import { pinAncestors, prune } from '../../main/policy/sandbox-layers.js';
import { MAX_COVERED_REPOS } from '../../main/policy/sandbox-repos.js';
import { BWRAP, GIT_IN_PROJECT, LINUX_CONFIG, LINUX_ENV, LINUX_TREE, PROTECTED, sandboxFor } from '../helpers/sandbox-fixtures.js';
import { makeConfig } from '../helpers/servers.js';
import { treePort, type Tree } from '../helpers/tree-port.js';

/** LINUX_TREE with a repository at the top of the writable root: its hooks and config exist. */
const REPO_AT_TOP: Tree = {
  ...LINUX_TREE,
  '/home/alex/projects/.git/hooks/pre-commit.sample': 'file',
  '/home/alex/projects/.git/HEAD': 'file',
  '/home/alex/projects/.git/config': 'file',
};

describe('the plan on Linux (workspace)', () => {
  it('hides, re-exposes and binds in order, and drops what changes nothing', async () => {
    const plan = await sandboxFor(LINUX_CONFIG).plan(GIT_IN_PROJECT);
    expect(plan).toMatchObject({ mechanism: 'bubblewrap', program: '/usr/bin/bwrap', mode: 'workspace', network: 'off', display: false, tempDir: '/tmp' });
    expect(plan!.entries.map((e) => `${e.access} ${e.kind} ${e.path}`)).toEqual([
      'temp directory /tmp',
      'temp directory /var/tmp',
      'hidden directory /run',
      'hidden directory /home/bob',
      'hidden directory /root',
      'write directory /home/alex/projects',
      'read directory /home/bob/shared',
      'read directory /home/alex/projects/vendor',
      'hidden directory /home/alex/.config/chatgpt-mcp',
      'hidden directory /home/alex/.ssh',
      'hidden directory /home/alex/secrets/aws',
      'hidden file /home/alex/.netrc',
      'hidden directory /home/alex/.mozilla',
      'hidden directory /home/alex/private',
    ]);
  });

  it('as root, also hides what only root can read (commands keep uid 0 and would own it)', async () => {
    const hidden = (await sandboxFor(LINUX_CONFIG, { uid: 0 }).plan(GIT_IN_PROJECT))!.entries.filter((e) => e.access === 'hidden').map((e) => e.path);
    expect(hidden.slice(-2)).toEqual(['/etc/shadow', '/etc/ssh/ssh_host_ed25519_key']);
    expect(hidden).not.toContain('/etc/ssh/ssh_host_ed25519_key.pub');
  });

  it('ignores a .git that is a link (here to the root), and the .git of a read-only root inside a writable one', async () => {
    const tree: Tree = {
      ...REPO_AT_TOP,
      '/home/alex/projects/vendor/.git/HEAD': 'file',
      '/home/alex/projects/vendor/.git/config': 'file',
      '/home/alex/projects/evil/.git': '-> /home/alex/projects',
    };
    const entries = (await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT))!.entries;
    expect(entries.filter((e) => e.access === 'write').map((e) => e.path)).toEqual(['/home/alex/projects', '/home/alex/projects/.git']);
    expect(entries.filter((e) => e.path.startsWith('/home/alex/projects/vendor')).map((e) => `${e.access} ${e.path}`)).toEqual([
      'read /home/alex/projects/vendor',
    ]);
  });

  it('covers repositories a few folders down too, and still those an earlier plan found once a command has buried them', async () => {
    const deep = '/home/alex/projects/github.com/acme/tool/.git';
    const tree: Tree = { ...LINUX_TREE, [`${deep}/HEAD`]: 'file', [`${deep}/config`]: 'file', [`${deep}/hooks/pre-push.sample`]: 'file' };
    const port = treePort({ platform: 'linux', tree, env: LINUX_ENV, support: BWRAP });
    const sandbox = sandboxFor(LINUX_CONFIG, { port });
    const covered = async (policy = sandbox) =>
      (await policy.plan(GIT_IN_PROJECT))!.entries
        .filter((e) => e.path.startsWith('/home/alex/projects/github.com'))
        .map((e) => `${e.access} ${e.path}${e.pinned ? ' pinned' : ''}`);
    // The folders up to the root are pinned too: moved deeper than the walk looks, its hooks would be open to the next command.
    const expected = [
      'write /home/alex/projects/github.com pinned',
      'write /home/alex/projects/github.com/acme pinned',
      'write /home/alex/projects/github.com/acme/tool pinned',
      `write ${deep} pinned`,
      `read ${deep}/hooks`,
      `read ${deep}/config`,
      // Where git serving it as a remote would look first: an empty read-only folder, so none can be made there.
      `hidden ${deep}/.git`,
    ];
    expect(await covered()).toEqual(expected);
    // Folders of folders beside it, enough to spend the walk's budget before it gets there: a fresh policy no longer reaches it, this one remembers.
    for (let i = 0; i < 1100; i++) for (let j = 0; j < 5; j++) port.put(`/home/alex/projects/f${i}/${j}`, 'dir');
    expect(await covered()).toEqual(expected);
    expect(await covered(sandboxFor(LINUX_CONFIG, { port }))).toEqual([]);
  });

  it(`covers at most ${MAX_COVERED_REPOS} repositories, the one the command starts in first`, async () => {
    const tree: Tree = { ...LINUX_TREE };
    for (let i = 0; i < MAX_COVERED_REPOS + 8; i++) {
      const repo = `/home/alex/projects/r${String(i).padStart(2, '0')}`;
      Object.assign(tree, { [`${repo}/.git/HEAD`]: 'file', [`${repo}/.git/config`]: 'file' });
    }
    const last = `/home/alex/projects/r${MAX_COVERED_REPOS + 7}`;
    const pinnedGits = async (cwd: string) =>
      (await sandboxFor(LINUX_CONFIG, { tree }).plan({ ...GIT_IN_PROJECT, cwd }))!.entries
        .filter((e) => e.pinned && e.path.endsWith('/.git'))
        .map((e) => e.path);
    expect(await pinnedGits('/home/alex/projects')).toHaveLength(MAX_COVERED_REPOS);
    expect(await pinnedGits('/home/alex/projects')).not.toContain(`${last}/.git`);
    const fromLast = await pinnedGits(`${last}/src`);
    expect(fromLast).toHaveLength(MAX_COVERED_REPOS);
    expect(fromLast).toContain(`${last}/.git`);
  });

  it('remembers the repositories it finds when the server starts, before a tool call could bury them', async () => {
    const deep = '/home/alex/projects/github.com/acme/tool/.git';
    const port = treePort({ platform: 'linux', tree: { ...LINUX_TREE, [`${deep}/HEAD`]: 'file', [`${deep}/config`]: 'file' }, env: LINUX_ENV, support: BWRAP });
    const started = sandboxFor(LINUX_CONFIG, { port });
    await started.rememberRepositories();
    for (let i = 0; i < 1100; i++) for (let j = 0; j < 5; j++) port.put(`/home/alex/projects/f${i}/${j}`, 'dir');
    const covers = async (sandbox: typeof started) => (await sandbox.plan(GIT_IN_PROJECT))!.entries.some((e) => e.path === `${deep}/hooks`);
    expect(await covers(started)).toBe(true);
    expect(await covers(sandboxFor(LINUX_CONFIG, { port }))).toBe(false);
  });

  it('forgets a remembered repository once it is gone, so fakes a command made and removed do not fill the memory', async () => {
    const port = treePort({ platform: 'linux', tree: LINUX_TREE, env: LINUX_ENV, support: BWRAP });
    const sandbox = sandboxFor(LINUX_CONFIG, { port });
    const gits = async () => (await sandbox.plan(GIT_IN_PROJECT))!.entries.filter((e) => e.pinned && e.path.endsWith('/.git')).map((e) => e.path);
    // Fakes fill the memory (512) in rounds of 256 a root, each round removed before the next.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 256; i++) port.put(`/home/alex/projects/fake${round}-${i}/.git`, 'dir');
      await gits();
      for (let i = 0; i < 256; i++) port.remove(`/home/alex/projects/fake${round}-${i}`);
    }
    const late = '/home/alex/projects/zz/acme/tool/.git';
    port.put(`${late}/HEAD`, 'file');
    port.put(`${late}/config`, 'file');
    expect(await gits()).toEqual([late]);
    // Now fakes one level down, which the walk reaches first: the late one was remembered, so it stays first.
    for (let i = 0; i < 256; i++) port.put(`/home/alex/projects/a${i}/.git`, 'dir');
    expect((await gits())[0]).toBe(late);
  });

  it('a repository that cannot be looked at (its permissions taken away) is read-only whole from the deepest place the server sees, and commands run', async () => {
    const tree: Tree = {
      ...LINUX_TREE,
      '/home/alex/projects/c1/tool/.git/HEAD': 'file',
      '/home/alex/projects/c1/tool/.git/config': 'file',
      '/home/alex/projects/c2/.git/HEAD': 'file',
      '/home/alex/projects/c2/.git/config': 'file',
      '/home/alex/projects/c3/.git/modules/x/HEAD': 'file',
      '/home/alex/projects/ok/.git/HEAD': 'file',
      '/home/alex/projects/ok/.git/config': 'file',
    };
    const inner = treePort({ platform: 'linux', tree, env: LINUX_ENV, support: BWRAP });
    let denied = false;
    // c1 itself unreadable (all below it out of reach); c2's .git unreadable (it is seen, nothing in it); a folder in c3's .git/modules unreadable.
    const unreadable = (p: string) =>
      denied &&
      (p.startsWith('/home/alex/projects/c1/') || p.startsWith('/home/alex/projects/c2/.git/') || p.startsWith('/home/alex/projects/c3/.git/modules/x/'));
    const port = {
      ...inner,
      lstat: async (p: string) => {
        if (unreadable(p)) throw Object.assign(new Error(`EACCES: ${p}`), { code: 'EACCES' });
        return inner.lstat(p);
      },
      listFolders: async (p: string, limit: number) => (denied && p.startsWith('/home/alex/projects/c1') ? null : inner.listFolders(p, limit)),
    };
    const sandbox = sandboxFor(LINUX_CONFIG, { port });
    expect((await sandbox.plan(GIT_IN_PROJECT))!.entries.some((e) => e.path === '/home/alex/projects/c1/tool/.git/hooks')).toBe(true);
    denied = true;
    const entries = (await sandbox.plan(GIT_IN_PROJECT))!.entries;
    const lines = entries
      .filter((e) => /\/projects\/c\d/.test(e.path))
      .map((e) => `${e.access}${e.pinned ? ' pinned' : ''} ${e.path.slice('/home/alex/projects/'.length)}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        // No command can give them their permissions back (a read-only mount) and write their hooks meanwhile.
        'read c1',
        'read c2/.git',
        // One whose submodules cannot be looked at stays sealed: .git/modules read-only whole.
        'read c3/.git/modules',
        'hidden c3/.git/hooks',
      ]),
    );
    expect(lines.filter((line) => line.includes('c1/') || line.includes('c2/.git/'))).toEqual([]);
    expect(entries.some((e) => e.path === '/home/alex/projects/ok/.git/hooks')).toBe(true);
  });

  it("reads at most 1,024 submodule and worktree entries a plan: past them, a repository's whole .git/modules is read-only", async () => {
    const tree: Tree = { ...LINUX_TREE };
    // One module each, among 199 folders that are not (a module's name may hold slashes, so each is looked into).
    for (let r = 0; r < 6; r++) {
      tree[`/home/alex/projects/r${r}/.git/modules/m0/HEAD`] = 'file';
      for (let m = 1; m < 200; m++) tree[`/home/alex/projects/r${r}/.git/modules/m${m}`] = 'dir';
    }
    const entries = (await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT))!.entries;
    const sealed = entries.filter((e) => e.path.endsWith('/.git/modules') && e.access === 'read').map((e) => e.path);
    const moduleHooks = new Set(entries.filter((e) => /\/modules\/m\d+\/hooks$/.test(e.path)).map((e) => e.path.split('/.git/')[0]));
    // 200 entries each: five repositories' fit in the budget, the sixth's is sealed whole.
    expect(moduleHooks.size).toBe(5);
    expect(sealed).toHaveLength(1);
    expect(moduleHooks.has(sealed[0]!.split('/.git/')[0]!)).toBe(false);
  });

  it('never reads a folder under .git/modules or .git/worktrees whole: a command can put a million names there', async () => {
    const tree: Tree = { ...LINUX_TREE };
    for (let m = 0; m < 300; m++) tree[`/home/alex/projects/r/.git/modules/m${m}/HEAD`] = 'file';
    for (let w = 0; w < 300; w++) tree[`/home/alex/projects/r/.git/worktrees/w${w}/gitdir`] = 'file';
    const inner = treePort({ platform: 'linux', tree, env: LINUX_ENV, support: BWRAP });
    const limits: Array<number | undefined> = [];
    const port = { ...inner, listNames: async (dir: string, limit?: number) => (dir.includes('/.git/') && limits.push(limit), inner.listNames(dir, limit)) };
    const entries = (await sandboxFor(LINUX_CONFIG, { port }).plan(GIT_IN_PROJECT))!.entries;
    expect(limits.length).toBeGreaterThan(0);
    expect(limits.every((limit) => limit !== undefined && limit <= 256)).toBe(true);
    expect(entries.filter((e) => /\/r\/\.git\/(modules|worktrees)$/.test(e.path)).map((e) => e.access)).toEqual(['read', 'read']);
  });

  it("keeps git's hooks and config read-only in writable roots, and pins .git so it cannot be swapped", async () => {
    const tree: Tree = {
      ...REPO_AT_TOP,
      '/home/alex/projects/tool/.git/HEAD': 'file',
      '/home/alex/projects/tool/.git/config': 'file',
      // A .git/.git holding only what a sandbox's mounts leave (an empty hooks folder) is hidden as an empty one is.
      '/home/alex/projects/tool/.git/.git/hooks': 'dir',
      '/home/alex/projects/notes/readme.md': 'file',
    };
    const entries = (await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT))!.entries;
    const git = entries.filter((e) => e.path.includes('.git')).map((e) => `${e.access} ${e.kind}${e.pinned ? ' pinned' : ''} ${e.path}`);
    expect(git).toEqual([
      'write directory pinned /home/alex/projects/.git',
      'write directory pinned /home/alex/projects/tool/.git',
      'read directory /home/alex/projects/.git/hooks',
      'read file /home/alex/projects/.git/config',
      // no hooks folder yet: an empty read-only one takes its place
      'hidden directory /home/alex/projects/.git/.git',
      'hidden directory /home/alex/projects/tool/.git/hooks',
      'read file /home/alex/projects/tool/.git/config',
      'hidden directory /home/alex/projects/tool/.git/.git',
    ]);
    const allowed = await sandboxFor({ ...LINUX_CONFIG, filesystem: { ...LINUX_CONFIG.filesystem, allowGitHookWrites: true } }, { tree }).plan(GIT_IN_PROJECT);
    expect(allowed!.entries.some((e) => e.path.includes('.git'))).toBe(false);
  });

  it("a read-only root inside a repository's .git stays read-only: the pinned .git is mounted before it", async () => {
    const tree: Tree = { ...REPO_AT_TOP, '/home/alex/projects/.git/objects/pack': 'dir' };
    const config = {
      ...LINUX_CONFIG,
      filesystem: { ...LINUX_CONFIG.filesystem, roots: ['/home/alex/projects', { path: '/home/alex/projects/.git/objects', readOnly: true }] },
    };
    const lines = (await sandboxFor(config, { tree }).plan(GIT_IN_PROJECT))!.entries.map((e) => `${e.access} ${e.path}`);
    expect(lines.filter((line) => line.includes('/.git'))).toEqual([
      'write /home/alex/projects/.git',
      'read /home/alex/projects/.git/objects',
      'read /home/alex/projects/.git/hooks',
      'read /home/alex/projects/.git/config',
      'hidden /home/alex/projects/.git/.git',
    ]);
  });

  it('leaves a .git that links out of the writable roots alone: nothing there to cover or mount on', async () => {
    const tree: Tree = { ...LINUX_TREE, '/home/alex/projects/etc-repo/.git': '-> /etc', '/etc/passwd': 'file' };
    const entries = (await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT))!.entries;
    expect(entries.filter((e) => e.path.startsWith('/etc/') || e.path === '/etc')).toEqual([]);
  });

  it("also keeps submodules' hooks and config read-only, nested ones and names with slashes, with every folder on the way pinned", async () => {
    const modules = '/home/alex/projects/.git/modules';
    const tree: Tree = {
      ...LINUX_TREE,
      '/home/alex/projects/.git/HEAD': 'file',
      '/home/alex/projects/.git/config': 'file',
      '/home/alex/projects/.git/hooks': 'dir',
      [`${modules}/sub/HEAD`]: 'file',
      [`${modules}/sub/config`]: 'file',
      [`${modules}/sub/hooks`]: 'dir',
      [`${modules}/sub/modules/inner/HEAD`]: 'file',
      [`${modules}/libs/deep/HEAD`]: 'file',
    };
    const entries = (await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT))!.entries;
    const git = entries
      .filter((e) => e.path.startsWith(`${modules}/`) || e.path === modules)
      .map((e) => `${e.access}${e.pinned ? ' pinned' : ''} ${e.path.slice(modules.length)}`);
    // Every folder on the way is pinned, right after .git (pinAncestors), before the covers.
    expect(git).toEqual([
      'write pinned ',
      'write pinned /sub',
      'write pinned /libs',
      'write pinned /sub/modules',
      'write pinned /libs/deep',
      'write pinned /sub/modules/inner',
      'read /sub/hooks',
      'read /sub/config',
      'hidden /sub/modules/inner/hooks',
      'hidden /sub/modules/inner/config',
      'hidden /libs/deep/hooks',
      'hidden /libs/deep/config',
      'hidden /sub/.git',
      'hidden /sub/modules/inner/.git',
      'hidden /libs/deep/.git',
    ]);
  });

  it("keeps the files that point git elsewhere read-only where they exist: config.worktree, commondir, a linked worktree's gitdir", async () => {
    const git = '/home/alex/projects/.git';
    const tree: Tree = {
      ...REPO_AT_TOP,
      [`${git}/config.worktree`]: 'file',
      [`${git}/worktrees/feature/HEAD`]: 'file',
      [`${git}/worktrees/feature/commondir`]: 'file',
      [`${git}/worktrees/feature/gitdir`]: 'file',
      [`${git}/worktrees/feature/config.worktree`]: 'file',
      [`${git}/worktrees/bare/HEAD`]: 'file',
      [`${git}/worktrees/bare/commondir`]: 'file',
    };
    const entries = (await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT))!.entries;
    const lines = entries.filter((e) => e.path.startsWith(`${git}/`)).map((e) => `${e.access}${e.pinned ? ' pinned' : ''} ${e.path.slice(git.length + 1)}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'read config.worktree',
        'read worktrees/feature/commondir',
        'read worktrees/feature/gitdir',
        'read worktrees/feature/config.worktree',
        'read worktrees/bare/commondir',
      ]),
    );
    // Where they do not exist, nothing is made in their place, but an empty read-only .git in each git folder.
    expect(lines.filter((line) => line.startsWith('hidden') && !line.endsWith('hooks') && !line.endsWith('config'))).toEqual([
      'hidden .git',
      'hidden worktrees/feature/.git',
      'hidden worktrees/bare/.git',
    ]);
    expect(lines.some((line) => line.endsWith(' commondir') && !line.includes('worktrees/'))).toBe(false);

    // More worktrees than are looked at (a command can make any number): the whole folder is read-only.
    const many: Tree = { ...REPO_AT_TOP };
    for (let i = 0; i < 300; i++) many[`${git}/worktrees/w${i}/commondir`] = 'file';
    const sealed = (await sandboxFor(LINUX_CONFIG, { tree: many }).plan(GIT_IN_PROJECT))!.entries.filter((e) => e.path.startsWith(`${git}/worktrees`));
    expect(sealed.map((e) => `${e.access} ${e.path.slice(git.length + 1)}`)).toEqual(['read worktrees']);
  });

  it('read-only: every root is read-only, only the temp folder is writable', async () => {
    const plan = await sandboxFor({ ...LINUX_CONFIG, shell: { ...LINUX_CONFIG.shell, sandbox: 'read-only' } }).plan(GIT_IN_PROJECT);
    expect(plan!.mode).toBe('read-only');
    expect(plan!.entries.filter((e) => e.access === 'write')).toEqual([]);
    expect(plan!.entries.filter((e) => e.access === 'temp').map((e) => e.path)).toEqual(['/tmp', '/var/tmp']);
  });

  it('with filesystem.write off, no root is writable for commands either', async () => {
    const plan = await sandboxFor({ ...LINUX_CONFIG, filesystem: { ...LINUX_CONFIG.filesystem, write: false } }).plan(GIT_IN_PROJECT);
    expect(plan!.entries.filter((e) => e.access === 'write')).toEqual([]);
  });

  it('re-exposes a home, a working directory and a program that a coarse rule hid', async () => {
    const tree: Tree = {
      '/tmp/home/.ssh': 'dir',
      '/tmp/home/work': 'dir',
      '/tmp/tools/prog': 'file',
      '/tmp/tools/link': '-> /tmp/tools/prog',
      '/var/tmp': 'dir',
    };
    const plan = await sandboxFor(
      { shell: { enabled: true, allowedCommands: ['*'], sandbox: 'workspace' } },
      { tree, env: { HOME: '/tmp/home', PATH: '/usr/bin' }, protectedFiles: [] },
    ).plan({ file: '/tmp/tools/prog', found: '/tmp/tools/link', cwd: '/tmp/home/work' });
    expect(plan!.entries.map((e) => `${e.access} ${e.path}`)).toEqual([
      'temp /tmp',
      'temp /var/tmp',
      'read /tmp/home',
      'read /tmp/tools/prog',
      'hidden /tmp/home/.ssh',
    ]);
  });

  it('keeps DNS files under /run visible only when the network is on', async () => {
    const on = await sandboxFor({ ...LINUX_CONFIG, shell: { ...LINUX_CONFIG.shell, network: 'on' } }).plan(GIT_IN_PROJECT);
    expect(on!.network).toBe('on');
    expect(on!.entries.filter((e) => e.access === 'read').map((e) => e.path)).toContain('/run/systemd/resolve');
    const off = await sandboxFor(LINUX_CONFIG).plan(GIT_IN_PROJECT);
    expect(off!.entries.some((e) => e.path.startsWith('/run/systemd'))).toBe(false);
  });

  it('with display access on, the session sockets under /run and /tmp stay visible; off, a cookie outside them is hidden', async () => {
    const tree: Tree = { ...LINUX_TREE, '/tmp/.X11-unix/X0': 'file', '/home/alex/.Xauthority': 'file' };
    const on = await sandboxFor({ ...LINUX_CONFIG, desktop: { hostDisplayAccess: true } }, { tree }).plan(GIT_IN_PROJECT);
    expect(on!.display).toBe(true);
    expect(on!.entries.filter((e) => e.access === 'read').map((e) => e.path)).toEqual(expect.arrayContaining(['/tmp/.X11-unix', '/run/user/1000']));
    expect(on!.entries.some((e) => e.path === '/home/alex/.Xauthority')).toBe(false);
    const off = await sandboxFor(LINUX_CONFIG, { tree }).plan(GIT_IN_PROJECT);
    expect(off!.entries.filter((e) => e.access === 'hidden').map((e) => e.path)).toContain('/home/alex/.Xauthority');
    expect(off!.entries.some((e) => e.path === '/tmp/.X11-unix' || e.path === '/run/user/1000')).toBe(false);
  });

  it('a Wayland session: its socket by path and every session bus path are hidden with display access off, shown with it on', async () => {
    const tree: Tree = { ...LINUX_TREE, '/home/alex/.wl/wayland-1': 'file', '/home/alex/.bus/portal': 'file', '/home/alex/.bus/second': 'file' };
    const env = {
      ...LINUX_ENV,
      WAYLAND_DISPLAY: '/home/alex/.wl/wayland-1',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/home/alex/.bus/portal,guid=1;unix:path=/home/alex/.bus/second',
    };
    const off = await sandboxFor(LINUX_CONFIG, { tree, env }).plan(GIT_IN_PROJECT);
    const hidden = off!.entries.filter((e) => e.access === 'hidden').map((e) => e.path);
    expect(hidden).toEqual(expect.arrayContaining(['/home/alex/.wl/wayland-1', '/home/alex/.bus/portal', '/home/alex/.bus/second']));
    const on = await sandboxFor({ ...LINUX_CONFIG, desktop: { hostDisplayAccess: true } }, { tree, env }).plan(GIT_IN_PROJECT);
    expect(on!.entries.some((e) => e.access === 'hidden' && /^\/home\/alex\/\.(wl|bus)\//.test(e.path))).toBe(false);
  });

  describe('a root or a home above the folders hidden or made private in steps 1 and 2', () => {
    const withRoots = (roots: NonNullable<NonNullable<ConfigInput['filesystem']>['roots']>): ConfigInput => ({
      ...LINUX_CONFIG,
      filesystem: { ...LINUX_CONFIG.filesystem, roots },
    });
    const lines = (plan: SandboxPlan | undefined) => plan!.entries.map((e) => `${e.access} ${e.path}`);
    const coarse = ['temp /tmp', 'temp /var/tmp', 'hidden /run', 'hidden /home/bob', 'hidden /root'];

    it.each(['/', '/home', '/var'])('a read-only root at %s leaves the private temp folder, /run and the other homes as they were', async (root) => {
      const entries = lines(await sandboxFor(withRoots([{ path: root, readOnly: true }, '/home/alex/projects'])).plan(GIT_IN_PROJECT));
      // Everything is readable anyway: the root's entry changes nothing, and nothing comes after it that would cover these.
      expect(entries.slice(0, 5)).toEqual(coarse);
      expect(entries).not.toContain(`read ${root}`);
      expect(entries[5]).toBe('write /home/alex/projects');
    });

    it('a writable root at / is refused like any root holding bwrap', async () => {
      await expect(sandboxFor(withRoots(['/'])).plan(GIT_IN_PROJECT)).rejects.toThrow(/sandbox program \/usr\/bin\/bwrap is inside a writable root/);
    });

    it('a root inside one of them still shows through it, and at the same path the root wins', async () => {
      const tree: Tree = { ...LINUX_TREE, '/run/media/alex/usb': 'dir' };
      const entries = lines(await sandboxFor(withRoots([{ path: '/', readOnly: true }, '/run/media/alex/usb', '/tmp']), { tree }).plan(GIT_IN_PROJECT));
      const after = (later: string, earlier: string) => expect(entries.indexOf(later)).toBeGreaterThan(entries.indexOf(earlier));
      after('write /tmp', 'temp /tmp');
      after('write /run/media/alex/usb', 'hidden /run');
      expect(entries.indexOf('temp /tmp')).toBeGreaterThanOrEqual(0);
    });

    it('HOME=/ re-exposes nothing (it would uncover all of them)', async () => {
      const entries = lines(await sandboxFor(LINUX_CONFIG, { env: { ...LINUX_ENV, HOME: '/' } }).plan(GIT_IN_PROJECT));
      expect(entries.filter((line) => line.endsWith(' /'))).toEqual([]);
      // alex's home is now another user's
      expect(entries.slice(0, 6)).toEqual(['temp /tmp', 'temp /var/tmp', 'hidden /run', 'hidden /home/alex', 'hidden /home/bob', 'hidden /root']);
    });

    it("keeps the sandbox's own /dev and /proc: a root there is left out, a hidden entry there is kept", async () => {
      const tree: Tree = { ...LINUX_TREE, '/proc/1/environ': 'file', '/dev/shm/secret': 'file' };
      const config = {
        ...LINUX_CONFIG,
        filesystem: { write: true, roots: [{ path: '/proc', readOnly: true }, '/dev/shm', '/home/alex/projects'], deny: ['/dev/shm/secret'] },
      };
      const entries = lines(await sandboxFor(config, { tree }).plan(GIT_IN_PROJECT));
      expect(entries.filter((line) => / \/(dev|proc)\b/.test(line))).toEqual(['hidden /dev/shm/secret']);
    });

    it("another user's repository in a writable root at /home stays hidden, the owner's own gets its hooks sealed", async () => {
      const tree: Tree = {
        ...LINUX_TREE,
        '/home/bob/.git/HEAD': 'file',
        '/home/bob/.git/config': 'file',
        '/home/alex/.git/HEAD': 'file',
        '/home/alex/.git/config': 'file',
      };
      const entries = lines(await sandboxFor(withRoots(['/home']), { tree }).plan(GIT_IN_PROJECT));
      expect(entries.filter((line) => line.includes('/home/bob'))).toEqual(['hidden /home/bob']);
      expect(entries).toEqual(expect.arrayContaining(['write /home/alex/.git', 'hidden /home/alex/.git/hooks']));
    });
  });

  it('resolves on every plan: a secret folder created after start is hidden from the next command', async () => {
    const config = makeConfig(LINUX_CONFIG);
    const port = treePort({ platform: 'linux', tree: LINUX_TREE, env: LINUX_ENV, support: BWRAP });
    const sandbox = new SandboxPolicy(config, new FilesystemPolicy(config.filesystem, port, { protectedFiles: PROTECTED }), port);
    expect((await sandbox.plan(GIT_IN_PROJECT))!.entries.some((e) => e.path === '/home/alex/.gnupg')).toBe(false);
    port.put('/home/alex/.gnupg/pubring.kbx', 'file');
    expect((await sandbox.plan(GIT_IN_PROJECT))!.entries).toContainEqual({ access: 'hidden', kind: 'directory', path: '/home/alex/.gnupg' });
  });

  it('does not hide the secret list when filesystem.protectSecrets is off, but always hides this app and other homes', async () => {
    const plan = await sandboxFor({ ...LINUX_CONFIG, filesystem: { ...LINUX_CONFIG.filesystem, protectSecrets: false } }).plan(GIT_IN_PROJECT);
    const hidden = plan!.entries.filter((e) => e.access === 'hidden').map((e) => e.path);
    expect(hidden).not.toContain('/home/alex/.ssh');
    expect(hidden).toEqual(expect.arrayContaining(['/home/alex/.config/chatgpt-mcp', '/home/bob']));
  });

  it('refuses every command when bwrap lies inside a writable root', async () => {
    const tree: Tree = { ...LINUX_TREE, '/home/alex/projects/bin/bwrap': 'file' };
    const support: SandboxSupport = { ...BWRAP, program: '/home/alex/projects/bin/bwrap' } as SandboxSupport;
    await expect(sandboxFor(LINUX_CONFIG, { tree, support }).plan(GIT_IN_PROJECT)).rejects.toThrow(
      /COMMAND_NOT_ALLOWED|sandbox program .* is inside a writable root/,
    );
  });

  it('is not there when the sandbox is off', async () => {
    const sandbox = sandboxFor({ ...LINUX_CONFIG, shell: { ...LINUX_CONFIG.shell, sandbox: 'off' } });
    expect(sandbox.active).toBe(false);
    expect(await sandbox.plan(GIT_IN_PROJECT)).toBeUndefined();
    expect(sandbox.describe()).toMatchObject({ mode: 'off', mechanism: null, network: 'on', display: 'visible' });
  });
});

describe('prune', () => {
  const e = (access: 'read' | 'write' | 'hidden' | 'temp', path: string) => ({ access, path, kind: 'directory' as const });
  it.each([
    ['drops a read entry where all is readable', [e('read', '/a')], []],
    ['drops a hidden entry inside a temp one', [e('temp', '/tmp'), e('hidden', '/tmp/x')], [e('temp', '/tmp')]],
    ['drops a writable root inside a writable root', [e('write', '/r'), e('write', '/r/sub')], [e('write', '/r')]],
    [
      'keeps entries that change access',
      [e('write', '/r'), e('read', '/r/ro'), e('hidden', '/r/ro/.ssh')],
      [e('write', '/r'), e('read', '/r/ro'), e('hidden', '/r/ro/.ssh')],
    ],
    [
      'keeps an entry that covers an earlier one',
      [e('hidden', '/h'), e('read', '/h/x'), e('read', '/h')],
      [e('hidden', '/h'), e('read', '/h/x'), e('read', '/h')],
    ],
    [
      'a hidden entry takes the place of what it lies over',
      [e('write', '/r'), e('hidden', '/r/a/b'), e('read', '/r/a/c'), e('hidden', '/r/a')],
      [e('write', '/r'), e('hidden', '/r/a')],
    ],
    [
      'a read or write entry over hidden ones keeps them (bwrap then refuses rather than uncover them)',
      [e('hidden', '/h/a'), e('read', '/h')],
      [e('hidden', '/h/a'), e('read', '/h')],
    ],
  ])('%s', (_name, entries, kept) => {
    expect(prune(entries)).toEqual(kept);
  });

  it('keeps a hidden entry inside a temp folder that is not private (macOS)', () => {
    expect(prune([e('temp', '/tmp'), e('hidden', '/tmp/x')], false)).toEqual([e('temp', '/tmp'), e('hidden', '/tmp/x')]);
  });
});

describe('pinAncestors', () => {
  const e = (access: 'read' | 'write' | 'hidden' | 'temp', path: string, kind: 'directory' | 'file' = 'directory') => ({ access, path, kind });
  const pin = (path: string) => ({ access: 'write' as const, path, kind: 'directory' as const, pinned: true });
  it.each([
    [
      'pins every folder between a writable entry and what it hides, shallow first, right after the writable entry',
      [e('write', '/r'), e('read', '/r/x/ro'), e('hidden', '/r/conf/app/config.json', 'file')],
      [e('write', '/r'), pin('/r/x'), pin('/r/conf'), pin('/r/conf/app'), e('read', '/r/x/ro'), e('hidden', '/r/conf/app/config.json', 'file')],
    ],
    [
      'pins a folder two entries share once',
      [e('write', '/r'), e('hidden', '/r/a/b'), e('hidden', '/r/a/c')],
      [e('write', '/r'), pin('/r/a'), e('hidden', '/r/a/b'), e('hidden', '/r/a/c')],
    ],
    [
      'needs nothing for a direct child (it is a mount point itself)',
      [e('write', '/r'), e('hidden', '/r/.env', 'file')],
      [e('write', '/r'), e('hidden', '/r/.env', 'file')],
    ],
    ['needs nothing where the holder cannot be written', [e('read', '/h'), e('hidden', '/h/a/b')], [e('read', '/h'), e('hidden', '/h/a/b')]],
    ['needs nothing in a private temp folder', [e('temp', '/tmp'), e('hidden', '/tmp/a/b')], [e('temp', '/tmp'), e('hidden', '/tmp/a/b')]],
    [
      'pins up to the nearest writable holder only',
      [e('write', '/r'), e('write', '/r/a/w'), e('hidden', '/r/a/w/s/t')],
      [e('write', '/r'), e('write', '/r/a/w'), pin('/r/a/w/s'), e('hidden', '/r/a/w/s/t')],
    ],
  ])('%s', (_name, entries, expected) => {
    expect(pinAncestors(entries)).toEqual(expected);
  });

  it('in a plan: the config kept inside a writable root, and a deny path deep in it', async () => {
    const tree: Tree = { ...LINUX_TREE, '/home/alex/projects/conf/mcp.json': 'file', '/home/alex/projects/app/private/key': 'file' };
    const config = { ...LINUX_CONFIG, filesystem: { ...LINUX_CONFIG.filesystem, deny: ['/home/alex/projects/app/private/**'] } };
    const plan = await sandboxFor(config, { tree, protectedFiles: ['/home/alex/projects/conf/mcp.json'] }).plan(GIT_IN_PROJECT);
    const inProject = plan!.entries.filter((x) => x.path.startsWith('/home/alex/projects')).map((x) => `${x.access}${x.pinned ? ' pinned' : ''} ${x.path}`);
    expect(inProject).toEqual([
      'write /home/alex/projects',
      'write pinned /home/alex/projects/conf',
      'write pinned /home/alex/projects/app',
      'read /home/alex/projects/vendor',
      'hidden /home/alex/projects/conf/mcp.json',
      'hidden /home/alex/projects/app/private',
    ]);
  });
});

describe('a deny path spelled in another case than on disk', () => {
  it('is hidden from commands where it really is, as the tools refuse it there (red team)', async () => {
    const tree: Tree = { ...LINUX_TREE, '/home/alex/projects/app/private/key': 'file' };
    const config = { ...LINUX_CONFIG, filesystem: { ...LINUX_CONFIG.filesystem, deny: ['/home/alex/projects/APP/Private/**'] } };
    const plan = await sandboxFor(config, { tree }).plan(GIT_IN_PROJECT);
    expect(plan!.entries.filter((x) => x.access === 'hidden' && x.path.startsWith('/home/alex/projects')).map((x) => x.path)).toEqual([
      '/home/alex/projects/app/private',
    ]);
  });
});

describe('what the server refuses at start', () => {
  const missing: SandboxSupport = {
    mechanism: 'bubblewrap',
    usable: false,
    problem: 'bubblewrap is not installed (no bwrap on the PATH)',
    fix: 'install it with sudo apt-get install bubblewrap',
  };

  it('a missing bwrap when the sandbox is asked for, with the install command', () => {
    const build = () => sandboxFor({ ...LINUX_CONFIG, shell: { ...LINUX_CONFIG.shell, sandbox: 'workspace' } }, { support: missing });
    expect(build).toThrow(SandboxUnavailableError);
    expect(build).toThrow(/shell\.sandbox is "workspace", but bubblewrap is not installed .*apt-get install bubblewrap.*or set shell\.sandbox to "off"/);
  });

  it('a missing bwrap under the default, saying that the default asked for it', () => {
    const byDefault = { ...LINUX_CONFIG, shell: { enabled: true, allowedCommands: ['git'] } };
    expect(() => sandboxFor(byDefault, { support: missing })).toThrow(/by default .*shell\.sandbox "auto" means "private-home".*apt-get install bubblewrap/);
  });

  it('nothing when commands are off: nothing is probed', () => {
    const probe = () => {
      throw new Error('probed');
    };
    const config = makeConfig({ shell: { enabled: false } });
    const port = { ...treePort({ platform: 'linux', tree: LINUX_TREE, env: LINUX_ENV, support: missing }), sandboxSupport: probe };
    expect(() => new SandboxPolicy(config, new FilesystemPolicy(config.filesystem, port), port)).not.toThrow();
  });

  it.each([
    ['workspace on Windows', 'win32', { sandbox: 'workspace' }, /cannot be sandboxed on Windows in this version; set shell\.sandbox to "off"/],
    ['read-only on Windows', 'win32', { sandbox: 'read-only' }, /cannot be sandboxed on Windows/],
    ['no network without a sandbox', 'linux', { sandbox: 'off', network: 'off' }, /shell\.network is "off", but only the sandbox can take the network away/],
    ['loopback with bubblewrap', 'linux', { network: 'loopback' }, /"loopback" .* is not available with bubblewrap/],
  ] as const)('%s', (_name, platform, shell, message) => {
    const config = makeConfig({ shell: { enabled: true, allowedCommands: ['git'], ...shell } });
    const port = { ...treePort({ platform: 'linux', tree: LINUX_TREE, env: LINUX_ENV, support: BWRAP }), platform };
    const build = () => new SandboxPolicy(config, new FilesystemPolicy(config.filesystem, port), port);
    expect(build).toThrow(SandboxUnavailableError);
    expect(build).toThrow(message);
  });

  it('names the key at fault, for the settings window', () => {
    try {
      sandboxFor({ shell: { enabled: true, allowedCommands: ['git'], network: 'loopback' } });
      expect.unreachable();
    } catch (error) {
      expect((error as SandboxUnavailableError).key).toEqual(['shell', 'network']);
    }
  });
});

describe('describe (system.info)', () => {
  it('says where commands write, what they never see, the network and the display', () => {
    const summary = sandboxFor(LINUX_CONFIG).describe();
    expect(summary).toMatchObject({ mode: 'workspace', mechanism: 'bubblewrap', version: 'bubblewrap 0.8.0', network: 'off', display: 'hidden' });
    expect(summary.writable).toEqual(['/home/alex/projects', 'a private temp folder (/tmp, /var/tmp)']);
    expect(summary.hidden).toEqual(expect.arrayContaining(["this app's config and folders", '~/.ssh', '~/.aws', '~/.gnupg', '/home/alex/private']));
    expect(summary.hidden).not.toContain('/etc/shadow');
    expect(sandboxFor(LINUX_CONFIG, { uid: 0 }).describe().hidden).toContain('/etc/shadow');
    expect(summary.notes.join(' ')).toMatch(/bubblewrap sandbox.*Network: none/);
  });

  it("says when bubblewrap's guard was not built here, and nothing when it was", () => {
    expect(
      sandboxFor(LINUX_CONFIG, { support: { ...BWRAP, guarded: false } as SandboxSupport })
        .describe()
        .notes.join(' '),
    ).toMatch(/guard was not built.*hooks writable/);
    expect(
      sandboxFor(LINUX_CONFIG, { support: { ...BWRAP, guarded: true } as SandboxSupport })
        .describe()
        .notes.join(' '),
    ).not.toMatch(/guard/);
  });

  it('with the network on and the display off, says the X11 abstract sockets stay reachable', () => {
    const summary = sandboxFor({ ...LINUX_CONFIG, shell: { ...LINUX_CONFIG.shell, network: 'on' } }).describe();
    expect(summary.display).toBe('abstract-sockets-reachable');
    expect(summary.notes.join(' ')).toMatch(/hidden except for abstract sockets.*shell\.network "off"/);
  });

  it('where the kernel scopes abstract sockets, plans the scope with the display off and says the display is hidden', async () => {
    const support = { ...BWRAP, abstractSocketScope: true };
    const shared = { ...LINUX_CONFIG, shell: { ...LINUX_CONFIG.shell, network: 'on' as const } };
    const scoped = sandboxFor(shared, { support });
    expect(scoped.describe().display).toBe('hidden');
    expect((await scoped.plan(GIT_IN_PROJECT))!.scopeAbstractSockets).toBe(true);
    expect((await sandboxFor(LINUX_CONFIG, { support }).plan(GIT_IN_PROJECT))!.scopeAbstractSockets).toBe(true);
    // With the display granted, its abstract socket is the way to it: nothing is scoped.
    const display = sandboxFor({ ...shared, desktop: { hostDisplayAccess: true } }, { support });
    expect((await display.plan(GIT_IN_PROJECT))!.scopeAbstractSockets).toBeUndefined();
    expect(display.describe().display).toBe('visible');
    expect((await sandboxFor(shared).plan(GIT_IN_PROJECT))!.scopeAbstractSockets).toBeUndefined();
  });
});
