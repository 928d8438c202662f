/**
 * The git-code rule's sandbox face (fs-rules.ts): in writable roots, the hooks and config of the
 * repositories there stay read-only, and the files that point git at other settings or folders,
 * because git runs what they name on the owner's next git command, outside any sandbox.
 */
import nodePath from 'node:path';
import { adapterError } from '../../adapter/contract/errors.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { RememberedRepositories } from './remembered-repos.js';
import { errorCode } from './path-locate.js';
import { decider, isBase, type Candidate, type Placed } from './sandbox-layers.js';
import { GIT_FOLDER_CODE } from './secret-patterns.js';
import { MAX_COVERED_REPOS, repositoriesOf } from './sandbox-repos.js';

const posix = nodePath.posix;
/** Entries under a repository's .git/modules (or .git/worktrees) looked at; past it the whole folder is read-only. */
const MAX_MODULE_ENTRIES = 256;
/** The same over all repositories of a plan: a command can fill every covered repository's (a red team made a command take 6 s). */
const MAX_GIT_ENTRIES_PER_PLAN = 1024;

type GitPort = Pick<PolicyPort, 'lstat' | 'listNames' | 'listFolders' | 'locateAll' | 'readStart'>;

/**
 * Where git runs code from on the owner's next git command, outside any sandbox: the hooks and
 * the config of the repositories in each writable root, bare ones too (as far as
 * sandbox-repos.ts looks, and those earlier plans found, `remembered`: their git folders; first
 * the one `cwd` is in). As for
 * the fs tools (filesystem.allowGitHookWrites), they stay read-only; `.git` itself is pinned so
 * a command cannot rename it away and put a writable one in its place. Objects and refs stay
 * writable: git commit works.
 *
 * Only a real git folder counts (a `.git` made a link does not), and only where a writable root decides its path (see
 * layered). Its entry is a writable mount after the roots, so a `.git` that a command made a
 * link (to the root itself, to a read-only root nested in it) would otherwise make that place
 * writable, covering the hooks and roots before it; a read-only root's own `.git` stays
 * read-only, and another user's repository in a root at /home stays hidden.
 */
export async function gitCode(port: GitPort, placed: readonly Placed[], remembered: RememberedRepositories, cwd?: string): Promise<Candidate[]> {
  const base = placed.filter(isBase);
  const writableRoots = base.filter((p) => p.layer === 'root' && p.entry.access === 'write').map((p) => p.entry.path);
  const tops: string[] = [];
  for (const gitFolder of await repositoriesOf(port, writableRoots, remembered, cwd)) {
    // lstat first: most are real folders, and realpath costs a system call a path component.
    const facts = await refusingWhenUnseen(gitFolder, () => port.lstat(gitFolder));
    if (facts === null) remembered.forget(gitFolder);
    if (facts?.type !== 'directory') continue;
    // Where it really is, under its own name: a link on the way (a .git made a link to the root) is not it.
    const [git] = await port.locateAll([gitFolder]);
    if (git?.type !== 'directory' || posix.basename(git.real) !== posix.basename(gitFolder)) continue;
    // Out of every root (a link to /etc, say) it is read-only anyway; covering its missing
    // hooks would make bwrap create a mount point on a read-only folder.
    const holder = decider(base, git.real);
    if (holder?.layer === 'root' && holder.entry.access === 'write' && !tops.includes(git.real)) tops.push(git.real);
    if (tops.length === MAX_COVERED_REPOS) break;
  }
  const candidates: Candidate[] = [];
  const budget = { left: MAX_GIT_ENTRIES_PER_PLAN };
  for (const top of tops) candidates.push(...(await refusingWhenUnseen(top, () => cover(port, top, budget))));
  return candidates;
}

/** One repository's git folder `top`: pinned, its hooks, config and the files that send git elsewhere read-only, and its submodules'. */
async function cover(port: GitPort, top: string, budget: Budget): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const modules = await submoduleGits(port, top, budget);
  const gits = [top, ...(modules === 'sealed' ? [] : modules)];
  const parts = await port.locateAll(gits.flatMap((git) => [posix.join(git, 'hooks'), posix.join(git, 'config')]));
  // Submodules' git folders, and those on the way to them, are pinned by pinAncestors: their hooks and config lie in .git.
  candidates.push({ path: top, access: 'write', layer: 'git', pinned: true });
  gits.forEach((git, i) =>
    candidates.push(
      // A missing one gets an empty read-only one in its place, so none can be created either.
      { path: posix.join(git, 'hooks'), layer: 'git', ...(parts[2 * i] ? { access: 'read' } : { access: 'hidden', absent: 'directory' }) },
      { path: posix.join(git, 'config'), layer: 'git', ...(parts[2 * i + 1] ? { access: 'read' } : { access: 'hidden', absent: 'file' }) },
    ),
  );
  if (modules === 'sealed') candidates.push({ path: posix.join(top, 'modules'), access: 'read', layer: 'git' });
  const worktrees = await worktreeGits(port, top, budget);
  if (worktrees === 'sealed') candidates.push({ path: posix.join(top, 'worktrees'), access: 'read', layer: 'git' });
  candidates.push(...(await pointers(port, [...gits, ...(worktrees === 'sealed' ? [] : worktrees)])));
  return candidates;
}

interface Budget {
  left: number;
}

/**
 * Looks at a repository's git folder: what cannot be looked at (a command took the permissions
 * off a folder on its way, or off .git itself) stops the command, saying what to do: skipping it
 * would leave its hooks writable to this command.
 */
async function refusingWhenUnseen<T>(gitFolder: string, look: () => Promise<T>): Promise<T> {
  try {
    return await look();
  } catch (error) {
    const code = errorCode(error) || 'an error';
    throw adapterError(
      'COMMAND_NOT_ALLOWED',
      'shell.exec',
      `the sandbox keeps the hooks and config of the git repository at ${gitFolder} read-only, but cannot look at it (${code}); no command runs until it can: give it and the folders from the root down to it their permissions back (chmod u+rx)`,
    );
  }
}

/**
 * The files that send git elsewhere, read-only where they exist: `config.worktree` (settings, with
 * extensions.worktreeConfig), `commondir` (the git folder whose config and hooks git then uses)
 * and a linked worktree's `gitdir` (the folder `git worktree remove` deletes). A missing one
 * cannot be covered: an empty `commondir` in its place would stop git ("failed to read"), inside
 * and, as the mount point left behind, outside.
 */
async function pointers(port: GitPort, gits: readonly string[]): Promise<Candidate[]> {
  const files = gits.flatMap((git) => POINTER_FILES.map((name) => posix.join(git, name)));
  const found = await port.locateAll(files);
  return files.filter((_, i) => found[i]?.type === 'file').map((path) => ({ path, access: 'read' as const, layer: 'git' as const }));
}

/** What the fs tools protect in a git folder (secret-patterns.ts) beside its hooks and config, and a linked worktree's gitdir. */
const POINTER_FILES = [...GIT_FOLDER_CODE.filter((name) => name !== 'hooks/' && name !== 'config'), 'gitdir'];

/** A repository's linked worktrees' git folders (.git/worktrees/<name>); past MAX_MODULE_ENTRIES, 'sealed': the whole folder is read-only. */
async function worktreeGits(port: GitPort, top: string, budget: Budget): Promise<string[] | 'sealed'> {
  const dir = posix.join(top, 'worktrees');
  if ((await port.lstat(dir))?.type !== 'directory') return [];
  // Read no further than allowed: a command can put a million names there.
  const names = await port.listNames(dir, Math.min(MAX_MODULE_ENTRIES, budget.left));
  if (names === null) return 'sealed';
  budget.left -= names.length;
  const found: string[] = [];
  for (const name of names) if ((await port.lstat(posix.join(dir, name)))?.type === 'directory') found.push(posix.join(dir, name));
  return found;
}

/**
 * The git folders of submodules under a repository's .git/modules (nested ones under theirs):
 * git runs their hooks and config too, on a `git status` or `git submodule update` in the outer
 * repository. A module's name may hold slashes, so a folder without a HEAD is looked into; links
 * are not followed. Past MAX_MODULE_ENTRIES (a command can make any number of folders there)
 * the answer is 'sealed': the whole .git/modules is then read-only.
 */
async function submoduleGits(port: GitPort, top: string, budget: Budget): Promise<string[] | 'sealed'> {
  const found: string[] = [];
  const queue = [posix.join(top, 'modules')];
  let seen = 0;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    if ((await port.lstat(dir))?.type !== 'directory') continue;
    // Read no further than allowed: a command can put a million names there.
    const names = await port.listNames(dir, Math.min(MAX_MODULE_ENTRIES - seen, budget.left));
    if (names === null) return 'sealed';
    seen += names.length;
    budget.left -= names.length;
    for (const name of names) {
      const child = posix.join(dir, name);
      if ((await port.lstat(child))?.type !== 'directory') continue;
      const isGit = (await port.lstat(posix.join(child, 'HEAD'))) !== null;
      if (isGit) found.push(child);
      queue.push(isGit ? posix.join(child, 'modules') : child);
    }
  }
  return found;
}
