/**
 * push, pull and clone: the only git runs that reach another repository. The policy checked the
 * remote's identity and planned the run; here a push sends the current branch to the branch of
 * the same name (never forced, no tags, no upstream change), a pull fetches then fast-forwards
 * only after the policy saw every incoming path, and a clone checks out only after the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { adapterError } from '../contract/errors.js';
import type { GitRun, IncomingCheck, PullResult, PushResult } from '../contract/git.js';
import { parsePush } from './parse/push.js';
import { gitFailure, gitMessage, runGit } from './run-git.js';
import { changedBetween as incoming, commitOf as head, currentBranch } from './write-ops.js';

export async function push(run: GitRun, remote: string): Promise<PushResult> {
  const branch = await onBranch(run, 'git.push');
  const ref = `refs/heads/${branch}`;
  const args = ['push', '--porcelain', '--no-follow-tags', '--no-signed', '--recurse-submodules=no', '--', remote, `${ref}:${ref}`];
  const out = await runGit(run, args, { operation: 'git.push', ok: [0, 1] });
  const result = parsePush(out.stdout.toString('utf8'), remote, branch);
  if (!result) throw gitFailure(args, out, 'git.push');
  return result;
}

export async function pull(run: GitRun, remote: string, check: IncomingCheck): Promise<PullResult> {
  const op = 'git.pull';
  const branch = await onBranch(run, op);
  const before = await head(run, op);
  // Into the remote-tracking branch, as a plain fetch does (forced: it follows the remote).
  const tracking = `refs/remotes/${remote}/${branch}`;
  const known = await head(run, op, tracking);
  await runGit(run, ['fetch', '--no-tags', '--no-recurse-submodules', '--', remote, `+refs/heads/${branch}:${tracking}`], { operation: op });
  const fetched = await head(run, op, tracking);
  if (!fetched) throw adapterError('NOT_FOUND', op, `${remote} has no branch ${branch}`);
  const files = await incoming(run, before, fetched, op);
  try {
    await check(files);
  } catch (error) {
    // Refused: the remote-tracking branch goes back too, so nothing refers to what was refused (a restore from it, say).
    await runGit(run, known ? ['update-ref', tracking, known, fetched] : ['update-ref', '-d', tracking, fetched], { operation: op, ok: [0, 1, 128] });
    throw error;
  }
  if (before !== fetched) {
    const args = ['merge', '--ff-only', '--no-edit', '--no-stat', '--no-verify-signatures', '--end-of-options', fetched];
    const out = await runGit(run, args, { operation: op, ok: [0, 1, 128] });
    if (out.code !== 0)
      throw adapterError(
        'PRECONDITION_FAILED',
        op,
        `the branch cannot be fast-forwarded to ${remote}/${branch}: ${gitMessage(out.stderr) || 'it has commits of its own'}`,
      );
  }
  return { remote, branch, before, after: fetched, files };
}

export async function clone(
  run: GitRun,
  url: string,
  destination: string,
  options: { depth?: number; check: IncomingCheck },
): Promise<{ head: string | null; branch: string | null }> {
  const op = 'git.clone';
  const local = url.startsWith('/') || url.startsWith('file://');
  // --no-local: a local source is read through git's transport, never hard-linked or copied as files.
  const args = [
    'clone',
    '--quiet',
    '--no-checkout',
    '--no-recurse-submodules',
    ...(local ? ['--no-local'] : []),
    ...(run.uploadPack ? [`--upload-pack=${run.uploadPack}`] : []),
    ...(options.depth ? [`--depth=${options.depth}`] : []),
  ];
  let made = false;
  try {
    made = true;
    await runGit(run, [...args, '--', url, destination], { operation: op });
    const inside = { ...run, cwd: path.resolve(run.cwd, destination) };
    const commit = await head(inside, op);
    if (commit) {
      const listed = await runGit(inside, ['ls-tree', '-r', '--name-only', '-z', commit], { operation: op });
      await options.check(listed.stdout.toString('utf8').split('\0').filter(Boolean));
      await runGit(inside, ['checkout', '--quiet', '--no-recurse-submodules', commit, '--', '.'], { operation: op });
    }
    const branch = await runGit(inside, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { operation: op, ok: [0, 1] });
    return { head: commit, branch: branch.stdout.toString('utf8').trim() || null };
  } catch (error) {
    if (made) fs.rmSync(path.resolve(run.cwd, destination), { recursive: true, force: true });
    throw error;
  }
}

async function onBranch(run: GitRun, operation: string): Promise<string> {
  const branch = await currentBranch(run);
  if (!branch) throw adapterError('PRECONDITION_FAILED', operation, 'HEAD is detached: switch to a branch first (git.switch)');
  return branch;
}
