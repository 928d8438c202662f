/**
 * git's local writes (git.write): stage and unstage named paths, commit what is staged, create
 * and switch branches, restore named paths. Nothing leaves the computer. Each holds the
 * repository exclusively against the fs tools, and the change journal records it for undo.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { GitTarget } from '../../policy/git.js';
import { defineTool, DESTRUCTIVE, IDEMPOTENT_WRITE, type ToolDeps } from '../tool.js';
import type { BeforeChange, RepositoryChange } from '../change-recorder.js';
import { GRANT } from '../../policy/grants.js';
import { exclusive } from './fs-common.js';
import { branchInput, commitOutput, pathsInput, repositoryInput, revisionInput, statusEntryOutput, statusLines } from './git-common.js';
import { lineSafe } from './line-safe.js';

const nonEmptyPaths = pathsInput.min(1);
const repoTarget = (args: { path: string }) => ({ path: args.path });

/** The repository held exclusively while git changes it; the journal records its refs, index and `paths`, before and after. */
export function changing<T>(deps: ToolDeps, repo: GitTarget, change: RepositoryChange, work: (before: BeforeChange) => Promise<T>): Promise<T> {
  return deps.policy.fsLock.run([exclusive(repo.topLevel)], () => deps.changes.repository(repo, change, work));
}

export const gitAdd = defineTool({
  name: 'git.add',
  title: 'Stage paths',
  description:
    'Stage exactly the named paths (new, changed and deleted files under them; ignored files are not added). Protected files (secrets, filesystem.deny) are refused. Nothing is committed.',
  input: z.object({ path: repositoryInput, paths: nonEmptyPaths }),
  output: z.object({ repository: z.string(), staged: z.array(statusEntryOutput) }),
  annotations: IDEMPOTENT_WRITE,
  grant: GRANT.gitWrite,
  target: (args) => ({ path: args.path, paths: args.paths.length }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const repo = await policy.git.open({ path: args.path, use: 'write', operation: 'git.add', signal });
    const paths = await policy.git.paths(repo, args.paths, 'write', 'git.add');
    await changing(deps, repo, {}, () => adapter.git.add(repo.run, paths, async (listed) => policy.git.checkReported(repo, listed, 'read', 'git.add')));
    return staged(deps, repo, paths);
  },
});

export const gitUnstage = defineTool({
  name: 'git.unstage',
  title: 'Unstage paths',
  description: "Take the named paths out of what is staged (back to HEAD's version in the index); the files themselves are not changed.",
  input: z.object({ path: repositoryInput, paths: nonEmptyPaths }),
  output: z.object({ repository: z.string(), staged: z.array(statusEntryOutput) }),
  annotations: IDEMPOTENT_WRITE,
  grant: GRANT.gitWrite,
  target: (args) => ({ path: args.path, paths: args.paths.length }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const repo = await policy.git.open({ path: args.path, use: 'write', operation: 'git.unstage', signal });
    const paths = await policy.git.paths(repo, args.paths, 'write', 'git.unstage');
    await changing(deps, repo, {}, () => adapter.git.unstage(repo.run, paths));
    return staged(deps, repo, paths, true);
  },
});

/** What is staged under the paths now, as the answer of add and unstage (an unstage that worked leaves nothing: said so). */
async function staged(deps: ToolDeps, repo: GitTarget, paths: readonly string[], unstaged = false) {
  const status = await deps.adapter.git.status(repo.run, { maxEntries: 1000, paths });
  const entries = status.entries.filter((e) => e.staged !== undefined);
  const under = paths.map(lineSafe).join(', ');
  const none = unstaged ? `Nothing is staged under ${under} now` : `Nothing staged under ${under}`;
  const text = entries.length ? `Staged under ${under}:\n${statusLines(entries).join('\n')}` : none;
  return { structured: { repository: repo.topLevel, staged: entries }, text };
}

export const gitCommit = defineTool({
  name: 'git.commit',
  title: 'Commit what is staged',
  description:
    "Commit exactly what is staged (git.add first), with this message, on the current branch; the owner's identity and signing settings apply. Refused when nothing is staged. The commit stays local: git.push is separate.",
  input: z.object({
    path: repositoryInput,
    message: z.string().trim().min(1).max(20_000).describe('The commit message: a subject line, optionally a blank line and a body'),
  }),
  output: z.object({ repository: z.string(), commit: commitOutput, branch: z.string().nullable(), files: z.number(), added: z.number(), removed: z.number() }),
  annotations: DESTRUCTIVE,
  grant: GRANT.gitWrite,
  target: repoTarget,
  async run(args, deps, signal) {
    const repo = await deps.policy.git.open({ path: args.path, use: 'write', operation: 'git.commit', signal });
    return commitStaged(deps, repo, args.message, 'git.commit');
  },
});

/**
 * Commits what is staged, never a protected file (a command may have staged one: it would leave
 * with the next push) and, with `named`, nothing outside those paths (a check the model rewrote
 * may have staged more).
 */
export async function commitStaged(deps: ToolDeps, repo: GitTarget, message: string, op: string, named?: (path: string) => boolean) {
  const check = async (paths: readonly string[]) => {
    deps.policy.git.checkReported(repo, paths, 'read', op, 'commit');
    const unnamed = named ? paths.filter((p) => !named(p)) : [];
    if (unnamed.length > 0)
      throw adapterError(
        'PRECONDITION_FAILED',
        op,
        `the index holds changes this call did not name (${listed(unnamed, repo.run.visible)}), staged while it ran: nothing was committed; unstage them (git.unstage) or name them in paths`,
      );
  };
  const result = await changing(deps, repo, {}, () => deps.adapter.git.commit(repo.run, message, check));
  const text = `Committed ${result.commit.hash.slice(0, 12)} on ${result.branch ?? 'a detached HEAD'}: ${result.commit.subject} (${result.files} file${result.files === 1 ? '' : 's'}, +${result.added} -${result.removed})`;
  return { structured: { repository: repo.topLevel, ...result }, text };
}

export const gitBranchCreate = defineTool({
  name: 'git.branch_create',
  title: 'Create a branch',
  description: 'Create a local branch at HEAD or at start (a branch or commit), without switching to it (git.switch does) and without an upstream.',
  input: z.object({ path: repositoryInput, name: branchInput, start: revisionInput.optional() }),
  output: z.object({ repository: z.string(), name: z.string(), commit: z.string() }),
  annotations: DESTRUCTIVE,
  grant: GRANT.gitWrite,
  target: (args) => ({ path: args.path, name: args.name }),
  async run(args, deps, signal) {
    const repo = await deps.policy.git.open({ path: args.path, use: 'write', operation: 'git.branch_create', signal });
    const created = await changing(deps, repo, { refs: [`refs/heads/${args.name}`] }, () => deps.adapter.git.createBranch(repo.run, args.name, args.start));
    return { structured: { repository: repo.topLevel, ...created }, text: `Created branch ${created.name} at ${created.commit.slice(0, 12)}` };
  },
});

export const gitSwitch = defineTool({
  name: 'git.switch',
  title: 'Switch branches',
  description:
    "Switch the working tree to an existing local branch. Refused while files have uncommitted changes (they are listed), unless discardChanges: true, which throws those changes away (the change journal keeps them for the owner's undo).",
  input: z.object({ path: repositoryInput, branch: branchInput, discardChanges: z.boolean().default(false) }),
  output: z.object({ repository: z.string(), branch: z.string(), commit: z.string().nullable() }),
  annotations: DESTRUCTIVE,
  grant: GRANT.gitWrite,
  target: (args) => ({ path: args.path, branch: args.branch, discardChanges: args.discardChanges }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const repo = await policy.git.open({ path: args.path, use: 'write', operation: 'git.switch', signal });
    const changes = await adapter.git.changedPaths(repo.run, { revision: `refs/heads/${args.branch}` });
    if (changes.dirty.length > 0 && !args.discardChanges) {
      throw adapterError(
        'PRECONDITION_FAILED',
        'git.switch',
        `the working tree has uncommitted changes (${listed(changes.dirty, repo.run.visible)}): commit them, or pass discardChanges: true to throw them away`,
      );
    }
    const paths = [...new Set([...changes.between, ...changes.dirty])];
    // As a pull: a branch must not bring a protected file (a .env, a file filesystem.deny names) over yours.
    policy.git.checkReported(repo, paths, 'write', 'git.switch');
    const switched = await changing(deps, repo, { paths, refs: [`refs/heads/${args.branch}`] }, () =>
      adapter.git.switchBranch(repo.run, args.branch, { discardChanges: args.discardChanges }),
    );
    return {
      structured: { repository: repo.topLevel, ...switched },
      text: `Switched to ${switched.branch} (${switched.commit?.slice(0, 12) ?? 'no commits yet'})`,
    };
  },
});

export const gitRestore = defineTool({
  name: 'git.restore',
  title: 'Restore paths',
  description:
    "Put named paths back as the index has them (the default), or as a revision has them (source); staged: true restores what is staged too. Uncommitted changes to those files are lost (the change journal keeps them for the owner's undo).",
  input: z.object({
    path: repositoryInput,
    paths: nonEmptyPaths,
    source: revisionInput.optional().describe('Restore from this revision instead of the index'),
    staged: z.boolean().default(false).describe('Restore the index too (unstage and revert)'),
  }),
  output: z.object({ repository: z.string(), restored: z.array(z.string()) }),
  annotations: DESTRUCTIVE,
  grant: GRANT.gitWrite,
  target: (args) => ({ path: args.path, paths: args.paths.length, source: args.source ?? 'index' }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const repo = await policy.git.open({ path: args.path, use: 'write', operation: 'git.restore', signal });
    const paths = await policy.git.paths(repo, args.paths, 'write', 'git.restore');
    const changes = await adapter.git.changedPaths(repo.run, { ...(args.source ? { revision: args.source } : {}), paths });
    const touched = [...new Set([...changes.between, ...changes.dirty])];
    policy.git.checkReported(repo, touched, 'write', 'git.restore');
    await changing(deps, repo, { paths: touched }, () =>
      adapter.git.restore(repo.run, paths, { ...(args.source ? { source: args.source } : {}), staged: args.staged, worktree: true }),
    );
    return { structured: { repository: repo.topLevel, restored: paths }, text: `Restored ${paths.join(', ')}${args.source ? ` from ${args.source}` : ''}` };
  },
});

/** Up to 20 paths, and how many protected ones were left unnamed. */
function listed(paths: readonly string[], visible: (path: string) => boolean): string {
  const shown = paths.filter(visible);
  const hidden = paths.length - shown.length;
  const named = [...shown.slice(0, 20), ...(shown.length > 20 ? [`${shown.length - 20} more`] : [])].join(', ');
  const protectedNote = hidden > 0 ? `${hidden} protected file${hidden === 1 ? '' : 's'}` : '';
  return [named, protectedNote].filter(Boolean).join(' and ');
}

export const gitWriteTools = [gitAdd, gitUnstage, gitCommit, gitBranchCreate, gitSwitch, gitRestore];
