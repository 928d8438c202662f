/**
 * The git tools' reading operations: status, diff, log, show and branches, each one or two git
 * runs parsed into typed results. Every revision a caller gave follows `--end-of-options` and
 * every path follows `--`; GIT_LITERAL_PATHSPECS (in the policy's environment) keeps paths from
 * being read as patterns.
 */
import { adapterError } from '../contract/errors.js';
import type { DiffOptions, GitBranches, GitDiff, GitLog, GitRun, GitShow, GitStatus, LogOptions, ShowOptions } from '../contract/git.js';
import { BRANCH_FORMAT, parseBranches } from './parse/branches.js';
import { addConflictPatches } from './conflict-patches.js';
import { parseDiff } from './parse/diff.js';
import { LOG_FORMAT, parseLog } from './parse/log.js';
import { parseStatus } from './parse/status.js';
import { runGit } from './run-git.js';

/** Room for the file list (raw and numstat records) before the patches, on top of the caller's byte budget. */
const LIST_BYTES = 8 * 1024 * 1024;
/** Bytes looked at to tell a binary file (as git does: a NUL in the first 8000). */
const BINARY_SNIFF = 8000;
/** Reading tools never take git's optional locks (the owner's own git keeps working meanwhile). */
const READ = '--no-optional-locks';
const PATCH_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=all'];
export const DIFF_FLAGS = [...PATCH_FLAGS, '--find-renames', '--raw', '--numstat', '--patch', '-z'];

export async function status(run: GitRun, options: { maxEntries: number; paths?: readonly string[] }): Promise<GitStatus> {
  const args = [READ, 'status', '--porcelain=v2', '--branch', '-z', '--ignore-submodules=all', '--', ...(options.paths ?? [])];
  const out = await runGit(run, args, { operation: 'git.status' });
  return parseStatus(out.stdout, run.visible, options.maxEntries);
}

export async function diff(run: GitRun, options: DiffOptions): Promise<GitDiff> {
  const request = options.diff;
  const which = request.kind === 'staged' ? ['--cached'] : [];
  const revisions = request.kind === 'revisions' ? ['--end-of-options', commitOnly(request.from), ...(request.to ? [commitOnly(request.to)] : [])] : [];
  const args = [READ, 'diff', ...DIFF_FLAGS, `-U${options.contextLines}`, ...which, ...revisions, '--', ...options.paths];
  const result = await diffOutput(run, args, options.maxBytes, 'git.diff');
  // Conflicted files of the working tree come without a patch from that run.
  if (request.kind === 'worktree') await addConflictPatches(run, result, [READ, 'diff', ...PATCH_FLAGS, `-U${options.contextLines}`], options.maxBytes);
  return result;
}

/**
 * A revision (or range) git reads only as commits: a blob's id would diff that content itself,
 * where the path rules that hide protected files (.env, keys) never see a path.
 */
export function commitOnly(revision: string): string {
  const range = /^(.*?)(\.\.\.?)(.*)$/.exec(revision);
  if (!range) return `${revision}^{commit}`;
  const [, from = '', dots = '', to = ''] = range;
  return `${from && `${from}^{commit}`}${dots}${to && `${to}^{commit}`}`;
}

export async function diffOutput(run: GitRun, args: string[], maxBytes: number, operation: string): Promise<GitDiff> {
  const out = await runGit(run, args, { operation, maxBytes: maxBytes + LIST_BYTES });
  return parseDiff(out.stdout, run.visible, maxBytes, out.truncated);
}

export async function log(run: GitRun, options: LogOptions): Promise<GitLog> {
  const args = [
    READ,
    'log',
    '-z',
    '--no-color',
    '--no-show-signature',
    `--format=${LOG_FORMAT}`,
    `--max-count=${options.limit + 1}`,
    `--skip=${options.skip}`,
    '--end-of-options',
    options.revision ?? 'HEAD',
    '--',
    ...options.paths,
  ];
  const out = await runGit(run, args, { operation: 'git.log', ok: [0, 128] });
  if (out.code !== 0) {
    // A branch without commits has no log yet; anything else is git's own refusal.
    if (/does not have any commits yet|bad default revision 'HEAD'|bad revision 'HEAD'/.test(out.stderr) && options.revision === undefined)
      return { commits: [], more: false };
    throw adapterError('INVALID_INPUT', 'git.log', `git log: ${out.stderr.trim().split('\n')[0] ?? 'failed'}`);
  }
  const commits = parseLog(out.stdout, options.withBody);
  return { commits: commits.slice(0, options.limit), more: commits.length > options.limit };
}

export async function show(run: GitRun, options: ShowOptions): Promise<GitShow> {
  if (options.path !== undefined) return showFile(run, options.revision, options.path, options.maxBytes);
  const meta = await runGit(
    run,
    [READ, 'log', '-1', '-z', '--no-color', '--no-show-signature', `--format=${LOG_FORMAT}`, '--end-of-options', options.revision, '--'],
    {
      operation: 'git.show',
    },
  );
  const [commit] = parseLog(meta.stdout, true);
  if (!commit) throw adapterError('NOT_FOUND', 'git.show', `${options.revision} names no commit`);
  // A merge is shown against its first parent, a root commit against nothing.
  const args = [
    READ,
    'show',
    '--format=',
    '-m',
    '--first-parent',
    ...DIFF_FLAGS,
    `-U${options.contextLines}`,
    '--end-of-options',
    commit.hash,
    '--',
    ...(options.paths ?? []),
  ];
  const changes = await diffOutput(run, args, options.maxBytes, 'git.show');
  return { kind: 'commit', commit: { ...commit, body: commit.body ?? '' }, diff: changes };
}

async function showFile(run: GitRun, revision: string, path: string, maxBytes: number): Promise<GitShow> {
  // cat-file: the blob as stored, no textconv or filter runs.
  const out = await runGit(run, [READ, 'cat-file', 'blob', `${revision}:${path}`], { operation: 'git.show', maxBytes: maxBytes + 1, ok: [0, 128] });
  if (out.code !== 0 && !out.truncated)
    throw adapterError('NOT_FOUND', 'git.show', `${path} is not a file at ${revision}: ${out.stderr.trim().split('\n')[0] ?? ''}`);
  const truncated = out.stdout.length > maxBytes;
  const bytes = out.stdout.subarray(0, maxBytes);
  const binary = bytes.subarray(0, BINARY_SNIFF).includes(0);
  // The whole blob's size, asked apart only when it was cut (it was not read whole).
  const size = truncated
    ? Number((await runGit(run, [READ, 'cat-file', '-s', `${revision}:${path}`], { operation: 'git.show' })).stdout.toString().trim())
    : bytes.length;
  return { kind: 'file', path, revision, content: binary ? '' : bytes.toString('utf8'), bytes: bytes.length, size, truncated, binary };
}

export async function branches(run: GitRun): Promise<GitBranches> {
  const out = await runGit(run, [READ, 'for-each-ref', `--format=${BRANCH_FORMAT}`, 'refs/heads', 'refs/remotes'], { operation: 'git.branch_list' });
  return parseBranches(out.stdout);
}
