/**
 * The git tools' local writes (stage, unstage, commit, branch, switch, restore) and what the
 * change journal needs around them: the repository's state before and after, putting it back,
 * and the paths a switch would change. git decides nothing here the policy has not planned.
 */
import { adapterError } from '../contract/errors.js';
import type { CommitResult, GitRun, IncomingCheck, RepositoryState } from '../contract/git.js';
import { LOG_FORMAT, parseLog } from './parse/log.js';
import { parseStatus } from './parse/status.js';
import { gitFailure, runGit } from './run-git.js';

export async function add(run: GitRun, paths: readonly string[], check: IncomingCheck): Promise<void> {
  // What would be staged (changed, deleted and new files under the paths, ignored ones not), seen first.
  const listed = await runGit(
    run,
    ['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--untracked-files=all', '--ignore-submodules=all', '--', ...paths],
    {
      operation: 'git.add',
    },
  );
  const entries = parseStatus(listed.stdout, () => true, Number.MAX_SAFE_INTEGER).entries;
  await check(entries.flatMap((e) => (e.from === undefined ? [e.path] : [e.path, e.from])));
  // --all: a deleted path is staged as deleted, like a changed one as changed.
  await runGit(run, ['add', '--all', '--', ...paths], { operation: 'git.add' });
}

export async function unstage(run: GitRun, paths: readonly string[]): Promise<void> {
  // reset of paths: back to HEAD's version in the index, or out of it before the first commit.
  await runGit(run, ['reset', '--quiet', '--', ...paths], { operation: 'git.unstage' });
}

/**
 * Commits what is staged, after `check` saw every path the commit changes: once on what is staged
 * (a clear refusal before anything is made), and again on the commit made, since a program could
 * stage more in between (a command still running); a commit that fails the second look is taken
 * back (its branch, or HEAD, moved back to where it was) before the refusal goes out.
 */
export async function commit(run: GitRun, message: string, check: IncomingCheck): Promise<CommitResult> {
  const op = 'git.commit';
  const names = async (args: string[]) => (await runGit(run, args, { operation: op })).stdout.toString('utf8').split('\0').filter(Boolean);
  await check(await names(['--no-optional-locks', 'diff', '--cached', '--name-only', '-z', '--no-renames', '--ignore-submodules=all']));
  const before = await commitOf(run, op);
  // The message on stdin, kept as written (comment lines too): it never passes through an editor.
  const args = ['commit', '--no-edit', '--cleanup=whitespace', '--file=-'];
  const out = await runGit(run, args, { operation: op, input: message, ok: [0, 1] });
  const said = `${out.stdout.toString('utf8')}\n${out.stderr}`;
  if (out.code !== 0) {
    if (/nothing (added )?to commit|no changes added to commit|nothing to commit/i.test(said))
      throw adapterError('PRECONDITION_FAILED', op, 'nothing is staged: stage the changes to commit with git.add first');
    throw gitFailure(args, out, op);
  }
  const head = await runGit(run, ['log', '-1', '-z', '--no-show-signature', `--format=${LOG_FORMAT}`, 'HEAD', '--'], { operation: op });
  const [info] = parseLog(head.stdout, true);
  if (!info) throw adapterError('OS_ERROR', op, 'git committed, but the new commit could not be read back');
  try {
    await check(await changedBetween(run, before, info.hash, op));
  } catch (error) {
    await runGit(run, before ? ['update-ref', '-m', 'chatgpt-mcp: commit refused', 'HEAD', before, info.hash] : ['update-ref', '-d', 'HEAD', info.hash], {
      operation: op,
    });
    throw error;
  }
  // "[main abc1234] subject", "[main (root-commit) abc1234]", "[detached HEAD abc1234]"; then " 2 files changed, 3 insertions(+), 1 deletion(-)".
  const branch = /^\[(.+?) (?:\(root-commit\) )?[0-9a-f]{4,}\]/m.exec(said)?.[1];
  // A merge's summary has no line of counts: they are the merge's against the branch it was made on.
  const stat =
    /files? changed/.test(said) || !before
      ? said
      : (await runGit(run, ['diff', '--shortstat', '--no-ext-diff', '--no-textconv', before, info.hash], { operation: op })).stdout.toString('utf8');
  const count = (what: RegExp) => Number(what.exec(stat)?.[1] ?? 0);
  return {
    commit: info,
    branch: branch === undefined || branch === 'detached HEAD' ? null : branch,
    files: count(/(\d+) files? changed/),
    added: count(/(\d+) insertions?\(\+\)/),
    removed: count(/(\d+) deletions?\(-\)/),
  };
}

/** The commit a ref (HEAD) points at, or null when it points at none (before the first commit). */
export async function commitOf(run: GitRun, operation: string, name = 'HEAD'): Promise<string | null> {
  const out = await runGit(run, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`], { operation, ok: [0, 1, 128] });
  return out.code === 0 ? out.stdout.toString('utf8').trim() : null;
}

/** The paths that differ from `before` to `after` (every file of `after` when there is no `before`). */
export async function changedBetween(run: GitRun, before: string | null, after: string, operation: string): Promise<string[]> {
  const args = before
    ? ['diff', '--name-only', '-z', '--no-renames', '--ignore-submodules=all', before, after, '--']
    : ['ls-tree', '-r', '--name-only', '-z', after];
  const out = await runGit(run, args, { operation });
  return out.stdout.toString('utf8').split('\0').filter(Boolean);
}

export async function createBranch(run: GitRun, name: string, start?: string): Promise<{ name: string; commit: string }> {
  await runGit(run, ['branch', '--no-track', '--', name, ...(start ? [start] : [])], { operation: 'git.branch_create' });
  return { name, commit: await revision(run, `refs/heads/${name}`, 'git.branch_create') };
}

export async function switchBranch(run: GitRun, name: string, options: { discardChanges: boolean }): Promise<{ branch: string; commit: string | null }> {
  const args = ['switch', '--no-guess', '--no-recurse-submodules', ...(options.discardChanges ? ['--discard-changes'] : []), '--', name];
  await runGit(run, args, { operation: 'git.switch' });
  return { branch: name, commit: await revision(run, 'HEAD', 'git.switch') };
}

export async function restore(run: GitRun, paths: readonly string[], options: { source?: string; staged: boolean; worktree: boolean }): Promise<void> {
  const where = [...(options.staged ? ['--staged'] : []), ...(options.worktree || !options.staged ? ['--worktree'] : [])];
  const args = ['restore', '--no-recurse-submodules', ...(options.source ? [`--source=${options.source}`] : []), ...where, '--', ...paths];
  await runGit(run, args, { operation: 'git.restore' });
}

async function revision(run: GitRun, name: string, operation: string): Promise<string> {
  const out = await runGit(run, ['rev-parse', '--verify', '--quiet', '--end-of-options', name], { operation });
  return out.stdout.toString('utf8').trim();
}

/** HEAD's branch and commit, the index as a tree, and the named refs. */
export async function state(run: GitRun, refs: readonly string[] = []): Promise<RepositoryState> {
  const value = async (args: string[]) => {
    const out = await runGit(run, args, { operation: 'git.state', ok: [0, 1, 128] });
    return out.code === 0 ? out.stdout.toString('utf8').trim() || null : null;
  };
  const [headRef, commitId, index, ...values] = await Promise.all([
    value(['symbolic-ref', '--quiet', 'HEAD']),
    value(['rev-parse', '--verify', '--quiet', 'HEAD']),
    value(['write-tree']),
    ...refs.map((ref) => value(['rev-parse', '--verify', '--quiet', '--end-of-options', ref])),
  ]);
  return { headRef, commit: commitId, index, ...(refs.length ? { refs: Object.fromEntries(refs.map((ref, i) => [ref, values[i] ?? null])) } : {}) };
}

/**
 * Puts back what a git write changed, part by part, each only while it is still as the write
 * left it: HEAD (a switch), the branch HEAD names (a commit, a pull), other refs (a new branch),
 * the index (staging). A part someone changed since is left alone and named in the answer.
 */
export async function restoreState(run: GitRun, before: RepositoryState, after: RepositoryState): Promise<string[]> {
  const now = await state(run, Object.keys(after.refs ?? {}));
  const left: string[] = [];
  const op = 'undo';
  const git = (args: string[]) => runGit(run, args, { operation: op });
  if (before.headRef !== after.headRef) {
    if (now.headRef === after.headRef && now.commit === after.commit) {
      if (before.headRef) await git(['symbolic-ref', 'HEAD', before.headRef]);
      else if (before.commit) await git(['update-ref', '--no-deref', 'HEAD', before.commit]);
    } else left.push('HEAD (it moved since)');
  } else if (before.commit !== after.commit && !(after.headRef && after.headRef in (after.refs ?? {}))) {
    // A commit or a pull moved the branch HEAD names (or, detached, HEAD itself); recorded
    // since with the branch among the refs, put back with them below.
    left.push(...(await moveRef(run, after.headRef ?? 'HEAD', before.commit, after.commit)));
  }
  for (const [ref, value] of Object.entries(after.refs ?? {})) {
    const was = before.refs?.[ref] ?? null;
    if (was !== value) left.push(...(await moveRef(run, ref, was, value)));
  }
  if (before.index !== after.index && before.index) {
    if (now.index === after.index) await git(['read-tree', before.index]);
    else left.push('the index (staged changes were made since)');
  }
  return left;
}

/** Compare-and-swap: git moves the ref only while it still points at `expected`. */
async function moveRef(run: GitRun, ref: string, to: string | null, expected: string | null): Promise<string[]> {
  if (expected === null) return [];
  const detached = ref === 'HEAD' ? ['--no-deref'] : [];
  const args = to === null ? ['update-ref', ...detached, '-d', ref, expected] : ['update-ref', ...detached, '-m', 'chatgpt-mcp undo', ref, to, expected];
  const out = await runGit(run, args, { operation: 'undo', ok: [0, 1, 128] });
  return out.code === 0 ? [] : [`${ref} (it moved since)`];
}

/** What a switch or restore may change: paths differing from HEAD (to `revision`), and those with uncommitted changes. */
export async function changedPaths(run: GitRun, options: { revision?: string; paths?: readonly string[] }): Promise<{ between: string[]; dirty: string[] }> {
  const names = async (args: string[]) => {
    const out = await runGit(
      run,
      ['--no-optional-locks', 'diff', '--name-only', '-z', '--no-renames', '--ignore-submodules=all', ...args, '--', ...(options.paths ?? [])],
      {
        operation: 'git.changes',
        ok: [0, 128],
      },
    );
    return out.code === 0 ? out.stdout.toString('utf8').split('\0').filter(Boolean) : [];
  };
  const [between, dirty] = await Promise.all([options.revision ? names(['HEAD', '--end-of-options', options.revision]) : [], names(['HEAD'])]);
  return { between, dirty };
}

export async function currentBranch(run: GitRun): Promise<string | null> {
  const out = await runGit(run, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { operation: 'git.branch', ok: [0, 1] });
  return out.code === 0 ? out.stdout.toString('utf8').trim() : null;
}
