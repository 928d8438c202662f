/**
 * Where the sandbox looks for the repositories of a writable root whose hooks and config it keeps
 * read-only (sandbox-git.ts): a bounded walk, shallow first, because the plan is made for every
 * command. Projects sit a few folders down (~/code/github.com/org/name is three). Dot folders
 * (git's own, caches) and node_modules (thousands of package folders) are not looked into;
 * repositories are, for those nested in them, so that a `.git` a command makes in a folder does
 * not hide the repositories below it. Links are not followed: what they lead to is decided by
 * the root that holds it.
 */
import nodePath from 'node:path';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { RememberedRepositories } from './remembered-repos.js';
import { inside } from './sandbox-layers.js';

const posix = nodePath.posix;
/** How far below a root repositories are looked for: root/a/b/c. */
export const MAX_REPO_DEPTH = 3;
/** Names read per writable root, over all its folders, each folder opened counting as one more. */
export const MAX_NAMES_PER_ROOT = 4096;
/** A folder is read no further (one filled with files gives no repositories). */
const MAX_NAMES_PER_FOLDER = 1024;
/** Repositories found per writable root: each costs the sandbox a handful of mounts. */
export const MAX_REPOS_PER_ROOT = 256;
/**
 * Repositories a plan covers: each costs about four mounts (its .git pinned, hooks, config, the
 * folders up to the root pinned), and bubblewrap's cost per mount grows with the mounts before
 * it (bench/README.md, scenario 5).
 */
export const MAX_COVERED_REPOS = 32;

/** `.git` files taken per writable root: each costs a plan two mounts and two small reads. */
export const MAX_GIT_FILES_PER_ROOT = 32;
/** A .git file, or a worktree's commondir, is a line: what git writes is far shorter. */
const MAX_POINTER_BYTES = 4096;

type WalkPort = Pick<PolicyPort, 'listFolders' | 'listNames' | 'lstat' | 'locateAll' | 'readStart' | 'realpath'>;

/**
 * The git folders in `root`, its own included: each `.git` folder, and each bare repository (a
 * folder holding `objects`, `refs` and a `HEAD` file, whose receive hooks run when the owner
 * pushes to it), `.bare` ones beside their worktrees included; and each `.git` file (a linked
 * worktree's, a submodule's, git init --separate-git-dir's), which the plan keeps as it is and
 * follows to the git folder whose hooks and config git uses there (gitCode, followed).
 */
export async function repositoriesIn(port: WalkPort, root: string): Promise<string[]> {
  const gits: string[] = [];
  const pointers: string[] = [];
  const pointer = (dotGit: string) => void (pointers.length < MAX_GIT_FILES_PER_ROOT && pointers.push(dotGit));
  let budget = MAX_NAMES_PER_ROOT;
  let level = [root];
  for (let depth = 0; level.length > 0; depth += 1) {
    const next: string[] = [];
    const unlisted: string[] = [];
    for (const dir of level) {
      const listed = depth < MAX_REPO_DEPTH && budget > 0 ? await port.listFolders(dir, Math.min(budget - 1, MAX_NAMES_PER_FOLDER)) : undefined;
      if (listed === undefined) unlisted.push(dir);
      if (!listed) continue;
      budget -= listed.read + 1;
      if (listed.folders.includes('.git') && !(await leftover(port, posix.join(dir, '.git')))) gits.push(posix.join(dir, '.git'));
      if (listed.gitFile) pointer(posix.join(dir, '.git'));
      // A bare repository kept beside its worktrees, as `.bare` (its `.git` file points there).
      if (listed.folders.includes('.bare') && (await bare(port, posix.join(dir, '.bare')))) gits.push(posix.join(dir, '.bare'));
      if (await bare(port, dir, listed.folders)) {
        gits.push(dir);
        continue;
      }
      for (const name of listed.folders) if (!name.startsWith('.') && name !== 'node_modules') next.push(posix.join(dir, name));
    }
    // Past the depth or the budget, an lstat of each one's .git says as much as a listing, for less.
    for (const dir of unlisted) {
      const dotGit = await kind(port, posix.join(dir, '.git'));
      if (dotGit === 'directory' && !(await leftover(port, posix.join(dir, '.git')))) gits.push(posix.join(dir, '.git'));
      else if (dotGit === 'file') pointer(posix.join(dir, '.git'));
      else if (dir.endsWith('.git') && (await bare(port, dir))) gits.push(dir);
    }
    level = next;
  }
  return [...gits.slice(0, MAX_REPOS_PER_ROOT), ...pointers];
}

/**
 * The git folder a `.git` file names (`gitdir: PATH`, relative to the file's folder), or for a
 * linked worktree's the repository's own, which its `commondir` names: its hooks and config are
 * the ones git runs there. Read as git reads them: the text up to a NUL, only line ends trimmed,
 * `..` taken after the links before it. Null unless that is a git folder (a HEAD file and objects)
 * in one of `roots`, where git's code could be written: a file naming any folder covers nothing,
 * and one naming a far place (a network mount) is not looked at.
 */
export async function followed(port: WalkPort, dotGit: string, roots: readonly string[]): Promise<string | null> {
  const gitdir = await pointedTo(port, posix.dirname(dotGit), named(await port.readStart(dotGit, MAX_POINTER_BYTES), 'gitdir: '), roots);
  if (gitdir === null) return null;
  const common = named(await port.readStart(posix.join(gitdir, 'commondir'), MAX_POINTER_BYTES), '');
  const git = common === null ? gitdir : await pointedTo(port, gitdir, common, roots);
  return git !== null && (await bare(port, git)) ? git : null;
}

/** The path a pointer file's text names after `prefix` (`gitdir: ` in a .git file; none in commondir or a worktree's gitdir), as git reads it. */
export function named(text: string | null, prefix: string): string | null {
  const line = text?.split('\0')[0];
  if (!line?.startsWith(prefix)) return null;
  return line.slice(prefix.length).replace(/[\r\n]+$/, '') || null;
}

/** Where `path`, relative to `from`, really is, if it lies in one of `roots` (as written, and as it resolves). */
async function pointedTo(port: WalkPort, from: string, path: string | null, roots: readonly string[]): Promise<string | null> {
  if (path === null) return null;
  const written = path.startsWith('/') ? path : `${from}/${path}`;
  const within = (p: string) => roots.some((root) => inside(p, root));
  if (!within(posix.normalize(written))) return null;
  // realpath(3) takes each `..` after the links before it, as the kernel (and so git) does.
  const real = await port.realpath(written).catch(() => null);
  return real !== null && within(real) ? real : null;
}

/**
 * Entries a .git bwrap left may hold in all: its mount points for a repository's covers, pins and
 * placeholders, its submodules' and linked worktrees' among them (gitCode). One with more is taken
 * for a repository's.
 */
const MAX_LEFTOVER_ENTRIES = 64;

/**
 * Whether a .git folder holds nothing but folders and empty files (no HEAD, no link), or nothing
 * at all: no repository's. That is what bwrap leaves where a repository was moved away while it
 * mounted (the mount points still to come, made empty at the old place: which ones depends on when
 * the move fell), and the empty .git the plan puts in a bare repository (gitCode's pointers). Git
 * takes no such folder for a repository (HEAD names what is checked out), so passing it by
 * uncovers nothing a command could not make anew; covering it would keep the name taken (rm,
 * fs.move: EBUSY). A repository's cannot be made to look so by a command: its config (never
 * empty, git writes one) is read-only to it. One that cannot be read counts as a repository's.
 */
export async function leftover(port: Pick<PolicyPort, 'listNames' | 'lstat'>, dotGit: string): Promise<boolean> {
  const budget = { left: MAX_LEFTOVER_ENTRIES };
  const onlyEmpty = async (dir: string, top: boolean): Promise<boolean> => {
    const names = await port.listNames(dir, budget.left);
    // Every repository's has a HEAD: one listing tells most apart.
    if (!names || (top && names.includes('HEAD'))) return false;
    budget.left -= names.length;
    for (const name of names) {
      const path = posix.join(dir, name);
      const facts = await port.lstat(path).catch(() => null);
      if (facts?.type === 'file' && facts.size === 0) continue;
      if (facts?.type !== 'directory' || !(await onlyEmpty(path, false))) return false;
    }
    return true;
  };
  return onlyEmpty(dotGit, true);
}

/** A bare repository's folder: `objects` and `refs` folders and a `HEAD` file (as git itself asks); `folders` when listed already. */
async function bare(port: WalkPort, dir: string, folders?: readonly string[]): Promise<boolean> {
  if (folders && !(folders.includes('objects') && folders.includes('refs'))) return false;
  if (!folders && (await kind(port, posix.join(dir, 'objects'))) !== 'directory') return false;
  return (await kind(port, posix.join(dir, 'HEAD'))) === 'file';
}

/**
 * What is at `path`, for the walk: a place it cannot look at (another user's folder, a Docker
 * volume) is no repository to it. A remembered repository that cannot be looked at stops the
 * command instead (sandbox-git.ts).
 */
async function kind(port: WalkPort, path: string): Promise<string | undefined> {
  return (await port.lstat(path).catch(() => null))?.type;
}

/**
 * The git folders of every writable root, in the order the plan covers them (at most
 * MAX_COVERED_REPOS are): the one the command starts in, then those remembered from earlier
 * plans, then the rest, which are remembered from now on.
 */
export async function repositoriesOf(
  port: WalkPort,
  roots: readonly string[],
  remembered: RememberedRepositories,
  cwd: string | undefined,
  listed = remembered.list(),
): Promise<string[]> {
  const found = new Set([...(await enclosing(port, roots, cwd)), ...listed]);
  for (const root of roots) {
    for (const git of await repositoriesIn(port, root)) {
      found.add(git);
      remembered.add(git);
    }
  }
  return [...found];
}

/**
 * The repository holding `cwd` in a writable root: the .git files from it up to the nearest .git
 * folder, and that folder (a worktree's or submodule's .git file, then the repository above it).
 */
async function enclosing(port: WalkPort, roots: readonly string[], cwd: string | undefined): Promise<string[]> {
  const root = cwd && roots.find((r) => cwd === r || cwd.startsWith(`${r}/`));
  if (!cwd || !root) return [];
  const folders = [cwd];
  while (folders.at(-1) !== root) folders.push(posix.dirname(folders.at(-1)!));
  const dotGits = folders.map((dir) => posix.join(dir, '.git'));
  const found = await Promise.all(
    dotGits.map(async (dotGit) => {
      const type = await kind(port, dotGit);
      return type === 'directory' && (await leftover(port, dotGit)) ? null : type;
    }),
  );
  const top = found.indexOf('directory');
  const files = dotGits.filter((_, i) => (top < 0 || i < top) && found[i] === 'file').slice(0, MAX_ENCLOSING_GIT_FILES);
  return top < 0 ? files : [...files, dotGits[top]!];
}

/** .git files taken on the way up from a command's folder (a worktree inside a submodule is two). */
const MAX_ENCLOSING_GIT_FILES = 4;
