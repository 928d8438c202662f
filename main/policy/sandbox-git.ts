/**
 * The git-code rule's sandbox face (fs-rules.ts): in writable roots, the hooks and config of the
 * repositories there stay read-only, and the files that point git at other settings or folders,
 * because git runs what they name on the owner's next git command, outside any sandbox.
 */
import nodePath from 'node:path';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import { adapterError } from '../../adapter/contract/errors.js';
import type { RememberedRepositories } from './remembered-repos.js';
import { decider, inside, isBase, type Candidate, type Placed } from './sandbox-layers.js';
import { GIT_FOLDER_CODE } from './secret-patterns.js';
import { followed, leftover, MAX_COVERED_REPOS, named, repositoriesOf } from './sandbox-repos.js';
import { GitMountBudget, KEPT_FOR_GIT_FILES, MAX_MOUNTS_PER_GIT_FILE } from './git-mount-budget.js';

const posix = nodePath.posix;
/** Entries under a repository's .git/modules (or .git/worktrees) looked at; past it the whole folder is read-only. */
const MAX_MODULE_ENTRIES = 256;
/** The same over all repositories of a plan: a command can fill every covered repository's (a red team made a command take 6 s). */
const MAX_GIT_ENTRIES_PER_PLAN = 1024;

type GitPort = Pick<PolicyPort, 'lstat' | 'listNames' | 'listFolders' | 'locateAll' | 'readStart' | 'realpath'>;

/**
 * Where git runs code from on the owner's next git command, outside any sandbox: the hooks and
 * the config of the repositories in each writable root, bare ones too (as far as
 * sandbox-repos.ts looks, and those earlier plans found, `remembered`: their git folders and .git
 * files; first the one `cwd` is in). As for the fs tools (filesystem.allowGitHookWrites), they stay read-only;
 * `.git` itself is pinned so a command cannot rename it away and put a writable one in its place.
 * A `.git` file stays as it is, read-only in a pinned folder, so a command cannot point it at a
 * git folder of its own; the git folder it names is covered as a repository's. Objects and refs
 * stay writable: git commit works. At most MAX_COVERED_REPOS repositories, and as many as the
 * mounts they take allow (git-mount-budget.ts).
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
  // Where a path really is, under its own name (a link on the way, a .git made a link to the root, is not it), in a writable root.
  const locate = async (path: string): Promise<Place | null | 'missing'> => {
    const [at] = await port.locateAll([path]);
    if (!at) return 'missing';
    if (posix.basename(at.real) !== posix.basename(path)) return null;
    // Out of every root (a link to /etc, say) it is read-only anyway; covering its missing
    // hooks would make bwrap create a mount point on a read-only folder.
    const holder = decider(base, at.real);
    return holder?.layer === 'root' && holder.entry.access === 'write' ? { real: at.real, type: at.type, root: holder.entry.path } : null;
  };
  const place = async (path: string): Promise<Place | null> => {
    const at = await locate(path);
    return at === 'missing' ? null : at;
  };
  const budget = { left: MAX_GIT_ENTRIES_PER_PLAN };
  // What looking for the .git files git folders name may read: as much again, so it takes nothing from the covers.
  const naming = { left: MAX_GIT_ENTRIES_PER_PLAN };
  const mounts = new GitMountBudget();
  const covered = new Set<string>();
  const fit = (unit: Unit, limit?: number, kept?: typeof KEPT_FOR_GIT_FILES): boolean =>
    mounts.take(
      unit.map(({ root, parts }) => ({ root, paths: parts.map((c) => c.path) })),
      limit,
      kept,
    );
  // First every repository in the plan's order sealed (the fewest mounts: .git/modules and
  // .git/worktrees read-only whole), so none a command made costly, deep or long-named, can crowd
  // out the others; then, in the same order, each whole where the mounts left allow.
  const planned: Planned[] = [];
  let repos = 0;
  const sealedCover = async (top: Place) => ({ root: top.root, parts: await cover(port, top.real, budget, true).catch(() => readOnlyWhole(top.real)) });
  // A git folder the server cannot look into, or reach (a command made it or a folder above it
  // unreadable): the deepest place on the way the server sees is read-only whole, so no command
  // can give it its permissions back and write its hooks meanwhile, and the others run.
  const unseen = async (path: string): Promise<Unit[number] | null> => {
    for (let at = posix.dirname(path); at !== posix.dirname(at); at = posix.dirname(at)) {
      if ((await port.lstat(at).catch(() => undefined)) === undefined) continue;
      const holder = decider(base, at);
      return holder?.layer === 'root' && holder.entry.access === 'write' ? { root: holder.entry.path, parts: readOnlyWhole(at) } : null;
    }
    return null;
  };
  // Repositories first, .git files after them all (a command can name any number of those), each in the plan's order.
  // Each remembered one with the hold it has now: a plan made meanwhile may list it under another key.
  const held = new Map(remembered.held());
  const queue = await repositoriesOf(port, writableRoots, remembered, cwd, [...held.keys()]);
  const files: Array<{ path: string; remembered: boolean }> = [];
  // A remembered one is where its hold finds it: a program renaming a folder above it (or it) while
  // the plan looks has it asked again, a few times; never pinned down, the command is refused, since
  // a plan without it would leave its hooks open (and one with it at a place it left, the guard
  // refuses). What is at a name it left (what bwrap made there, or another repository) is the walk's.
  const settle = async (listed: string) => {
    const hold = held.get(listed);
    for (let found = listed, tries = 0; ; tries++) {
      // lstat first: most are real folders, and realpath costs a system call a path component.
      const facts = await port.lstat(found).catch(() => undefined);
      const top = facts?.type === 'directory' ? await locate(found) : null;
      const now = hold?.where();
      const there = top !== 'missing' && (now === found || top?.real === now);
      if (!now || facts === undefined || there) return { found, facts, top: top === 'missing' ? null : top };
      if (tries === SETTLE_TRIES) throw movingRepository(now);
      found = now;
    }
  };
  for (const listed of queue) {
    const { found, facts, top } = await settle(listed);
    if (facts === undefined) {
      const repository = await unseen(found);
      if (repository && fit([repository])) planned.push({ pointer: [], repository });
      continue;
    }
    if (facts === null) remembered.forget(listed);
    if (facts?.type === 'file') files.push({ path: found, remembered: true });
    if (facts?.type !== 'directory' || repos === MAX_COVERED_REPOS) continue;
    if (top?.type !== 'directory' || covered.has(top.real)) continue;
    const repository = await sealedCover(top);
    if (!fit([repository], undefined, KEPT_FOR_GIT_FILES)) continue;
    covered.add(top.real);
    planned.push({ top: top.real, pointer: [], repository });
    repos += 1;
    // Its linked worktrees' and submodules' .git files: kept as the walk's are, also in folders it
    // does not look into, or past the .git files a command made nearer the root.
    for (const path of await namedDotGits(port, top.real, naming, writableRoots))
      if (!queue.includes(path) && !files.some((file) => file.path === path)) files.push({ path, remembered: false });
  }
  for (const { path, remembered: known } of files) {
    // One a worktree's gitdir names and the server cannot look at is passed by (place); a remembered one refused above.
    const file = await place(path);
    if (file?.type !== 'file' || covered.has(file.real)) continue;
    covered.add(file.real);
    const pointer: Unit = [{ root: file.root, parts: keptFile(file) }];
    const target = repos < MAX_COVERED_REPOS ? await followed(port, file.real, writableRoots) : null;
    const top = target === null ? null : await place(target);
    const repository = top?.type === 'directory' && !covered.has(top.real) ? await sealedCover(top) : null;
    if (repository && fit([...pointer, repository])) {
      covered.add(top!.real);
      planned.push({ top: top!.real, pointer, repository });
      repos += 1;
    } else if (fit(pointer, MAX_MOUNTS_PER_GIT_FILE)) planned.push({ pointer });
    else continue;
    // Remembered once kept, so a command that fills .git/worktrees afterwards does not hide it.
    if (!known) remembered.add(path);
  }
  for (const entry of planned) {
    const { top, repository } = entry;
    if (!top || !repository || !repository.parts.some((c) => c.access === 'read' && NESTED.some((name) => c.path === posix.join(top, name)))) continue;
    // One whose submodules cannot be looked at stays sealed.
    const parts = await cover(port, top, budget, false).catch(() => null);
    const whole = parts && { root: repository.root, parts };
    if (whole && fit([whole])) entry.repository = whole;
  }
  const candidates = planned.flatMap(({ pointer, repository }) => [...pointer, ...(repository ? [repository] : [])].flatMap((part) => part.parts));
  return candidates.filter((c, i) => candidates.findIndex((d) => d.path === c.path && d.access === c.access) === i);
}

/**
 * One repository's git folder `top`: pinned, its hooks, config and the files that send git
 * elsewhere read-only, and its submodules' (or, `seal`, its .git/modules and .git/worktrees
 * read-only whole, for fewer mounts).
 */
async function cover(port: GitPort, top: string, budget: Budget, seal: boolean): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const modules = seal ? await sealed(port, top, 'modules') : await submoduleGits(port, top, budget);
  const gits = [top, ...(modules === 'sealed' ? [] : modules)];
  const parts = await port.locateAll(gits.flatMap((git) => [posix.join(git, 'hooks'), posix.join(git, 'config'), posix.join(git, 'worktrees')]));
  // Submodules' git folders, and those on the way to them, are pinned by pinAncestors: their hooks and config lie in .git.
  candidates.push({ path: top, access: 'write', layer: 'git', pinned: true });
  gits.forEach((git, i) =>
    candidates.push(
      // A missing one gets an empty read-only one in its place, so none can be created either.
      { path: posix.join(git, 'hooks'), layer: 'git', ...(parts[3 * i] ? { access: 'read' } : { access: 'hidden', absent: 'directory' }) },
      { path: posix.join(git, 'config'), layer: 'git', ...(parts[3 * i + 1] ? { access: 'read' } : { access: 'hidden', absent: 'file' }) },
    ),
  );
  // A submodule's own linked worktrees (rare): read-only whole.
  gits
    .slice(1)
    .forEach((git, i) => parts[3 * (i + 1) + 2]?.type === 'directory' && candidates.push({ path: posix.join(git, 'worktrees'), access: 'read', layer: 'git' }));
  if (modules === 'sealed') candidates.push({ path: posix.join(top, 'modules'), access: 'read', layer: 'git' });
  const worktrees = seal ? await sealed(port, top, 'worktrees') : await worktreeGits(port, top, budget);
  if (worktrees === 'sealed') candidates.push({ path: posix.join(top, 'worktrees'), access: 'read', layer: 'git' });
  const linked = worktrees === 'sealed' ? [] : worktrees;
  // Where a repository (a submodule's own, too) turns settings per worktree on, each of its worktrees' config.worktree.
  const perWorktree: string[] = [];
  for (const git of gits) if (await worktreeConfig(port, git)) perWorktree.push(git, ...(git === top ? linked : []));
  candidates.push(...(await pointers(port, [...gits, ...linked], perWorktree)));
  return candidates;
}

/**
 * The .git files a repository's git folder names: its linked worktrees', which their git folders'
 * `gitdir` names (the first MAX_WORKTREE_FILES that do, among the first MAX_MODULE_ENTRIES
 * folders), and its submodules', whose working trees their git folders' `core.worktree` names
 * (as many again). gitCode keeps them as the walk's, also where the walk does not look (a worktree
 * in a dot folder, past its depth, behind the 32 .git files a command made nearer the root) and
 * after a restart. Where each really is, and whether a writable root decides it, gitCode asks as
 * for those.
 */
async function namedDotGits(port: GitPort, top: string, budget: Budget, roots: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const keep = (path: string | null, most: number) => {
    if (files.length < most && path && posix.basename(path) === '.git' && roots.some((root) => path !== root && inside(path, root))) files.push(path);
  };
  const listed = await port.listFolders(posix.join(top, 'worktrees'), Math.min(MAX_MODULE_ENTRIES, budget.left));
  if (listed) budget.left -= listed.read;
  for (const name of listed?.folders ?? []) {
    const gitdir = named(await port.readStart(posix.join(top, 'worktrees', name, 'gitdir'), 4096), '');
    keep(gitdir?.startsWith('/') ? posix.normalize(gitdir) : null, MAX_WORKTREE_FILES);
  }
  const most = files.length + MAX_WORKTREE_FILES;
  // Where the server cannot look into .git/modules, none (the cover keeps it read-only whole).
  const modules = await submoduleGits(port, top, budget).catch(() => 'sealed' as const);
  for (const git of modules === 'sealed' ? [] : modules) {
    if (files.length === most) break;
    const worktree = configuredWorktree(await port.readStart(posix.join(git, 'config'), MAX_CONFIG_BYTES));
    keep(worktree === null ? null : posix.join(posix.resolve(git, worktree), '.git'), most);
  }
  return files;
}

/** `core.worktree` in a git config's text (a submodule's git folder names its working tree so), or null. */
export function configuredWorktree(config: string | null): string | null {
  let core = false;
  for (const line of (config ?? '').split('\n')) {
    const section = /^\s*\[\s*([^\]\s"]+)[^\]]*\]/.exec(line);
    if (section) core = section[1]!.toLowerCase() === 'core';
    const value = core ? /^\s*worktree\s*=\s*(.*?)\s*$/i.exec(line) : null;
    if (value?.[1]) return value[1].replace(/^"(.*)"$/, '$1');
  }
  return null;
}

/** How often the plan asks again where a remembered repository a program is moving went. */
const SETTLE_TRIES = 3;

function movingRepository(place: string): Error {
  return movedWhilePlanning(posix.dirname(place), 'kept being moved');
}

/** The command is refused: `place`, part of a repository's code, moved while its sandbox was planned. */
export function movedWhilePlanning(place: string, how = 'was moved'): Error {
  return adapterError(
    'PRECONDITION_FAILED',
    'sandbox',
    `the sandbox was not planned: ${place} ${how} while the command was starting (by another program); nothing ran, and running it again plans the sandbox anew`,
  );
}

/** Linked worktrees (and as many submodules) whose .git files a repository's plan keeps: each costs two mounts and the folders above it. */
const MAX_WORKTREE_FILES = 16;

/** 'sealed' when `top` holds the folder `name` (read-only whole then), else none. */
async function sealed(port: GitPort, top: string, name: string): Promise<[] | 'sealed'> {
  return (await port.lstat(posix.join(top, name)))?.type === 'directory' ? 'sealed' : [];
}

/**
 * Whether the repository's config turns on settings per worktree (extensions.worktreeConfig, as
 * `git sparse-checkout` does): git then reads each worktree's config.worktree, and `git config
 * --worktree` makes a missing one. Any mention counts; an extra mount costs less than a miss.
 */
async function worktreeConfig(port: GitPort, top: string): Promise<boolean> {
  return /worktreeconfig/i.test((await port.readStart(posix.join(top, 'config'), MAX_CONFIG_BYTES)) ?? '');
}

/** Read of a repository's config for worktreeConfig: git's own are a few hundred bytes. */
const MAX_CONFIG_BYTES = 64 * 1024;

interface Budget {
  left: number;
}

/** A repository's candidates, each part under the writable root that holds it. */
type Unit = Array<{ root: string; parts: Candidate[] }>;

/** Where a path really is, what is there, and the writable root that decides it. */
type Place = { real: string; type: string; root: string };

/** A repository in the plan (its git folder, `top`), and the .git file that named it (`pointer`), or a .git file alone. */
interface Planned {
  top?: string;
  pointer: Unit;
  repository?: { root: string; parts: Candidate[] };
}

/** The folders a repository's cover seals first, and covers entry by entry where the plan has room. */
const NESTED = ['modules', 'worktrees'];

/** A .git file kept as it is: read-only, in a folder that cannot be renamed away (a mount point is enough where the root holds it). */
function keptFile(file: Place): Candidate[] {
  const folder = posix.dirname(file.real);
  return [
    ...(folder === file.root ? [] : [{ path: folder, access: 'write' as const, layer: 'git' as const, pinned: true }]),
    { path: file.real, access: 'read', layer: 'git' },
  ];
}

/** A git folder (or the folder above it) covered as one read-only mount: nothing in it can change. */
function readOnlyWhole(path: string): Candidate[] {
  return [{ path, access: 'read', layer: 'git' }];
}

/**
 * The files that send git elsewhere, read-only where they exist: `config.worktree` (settings, with
 * extensions.worktreeConfig), `commondir` (the git folder whose config and hooks git then uses)
 * and a linked worktree's `gitdir` (the folder `git worktree remove` deletes). A missing one
 * cannot be covered: an empty `commondir` in its place would stop git ("failed to read"), inside
 * and, as the mount point left behind, outside. A missing `config.worktree` can, where git reads
 * one (`perWorktree`): an empty config is a valid one.
 */
async function pointers(port: GitPort, gits: readonly string[], perWorktree: readonly string[]): Promise<Candidate[]> {
  const files = gits.flatMap((git) => POINTER_FILES.map((name) => posix.join(git, name)));
  const found = await port.locateAll(files);
  const existing = files.filter((_, i) => found[i]?.type === 'file');
  const placeholders = perWorktree.map((git) => posix.join(git, 'config.worktree')).filter((path) => !existing.includes(path));
  // A .git in a git folder is where git serving it as a remote looks first (a push runs that
  // one's hooks): a missing one, or one holding only what a sandbox's mounts leave (an earlier
  // command's), gets an empty read-only folder, which git passes by (and the walk too: leftover).
  // One that holds more is left to the walk, which covers it in a bare repository as a repository's.
  const dotGits: string[] = [];
  for (const [i, path] of files.entries())
    if (posix.basename(path) === '.git' && (!found[i] || (found[i].type === 'directory' && (await leftover(port, path))))) dotGits.push(path);
  return [
    ...existing.map((path) => ({ path, access: 'read' as const, layer: 'git' as const })),
    ...placeholders.map((path) => ({ path, access: 'hidden' as const, absent: 'file' as const, layer: 'git' as const })),
    ...dotGits.map((path) => ({ path, access: 'hidden' as const, absent: 'directory' as const, layer: 'git' as const })),
  ];
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
