/**
 * git's reading tools: status, diff, log, show, branch list. Each asks the git policy for the
 * repository (through the filesystem policy, its own settings refused when they name a program)
 * and the adapter runs git as planned, inside the command sandbox when there is one.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { DiffRequest } from '../../../adapter/contract/git.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { commitLine, commitOutput, diffOutput, diffText, pathsInput, repositoryInput, revisionInput, statusEntryOutput, statusLines } from './git-common.js';

const KiB = 1024;
const maxBytesInput = z
  .number()
  .int()
  .positive()
  .max(1024 * KiB)
  .default(64 * KiB)
  .describe('Bound on patch text in the answer; files past it are listed without their patch');
const contextInput = z.number().int().min(0).max(20).default(3).describe('Lines of context around each change');
const repoTarget = (args: { path: string }) => ({ path: args.path });

export const gitStatus = defineTool({
  name: 'git.status',
  title: 'Repository status',
  description:
    'The branch, its upstream and how far ahead or behind it is, and every changed, staged, untracked or conflicted path (like git status --short; paths relative to the top level). Protected paths (secrets, filesystem.deny) are counted in withheld, not shown.',
  input: z.object({ path: repositoryInput, maxEntries: z.number().int().positive().max(10_000).default(500) }),
  output: z.object({
    repository: z.string(),
    branch: z.string().nullable().describe('null when HEAD is detached'),
    head: z.string().nullable().describe('null before the first commit'),
    upstream: z.string().optional(),
    ahead: z.number().optional(),
    behind: z.number().optional(),
    entries: z.array(statusEntryOutput),
    total: z.number().describe('Changed paths in all; entries holds at most maxEntries of them'),
    truncated: z.boolean(),
    withheld: z.number(),
  }),
  annotations: READ_ONLY,
  grant: GRANT.gitRead,
  target: repoTarget,
  async run(args, { adapter, policy }, signal) {
    const repo = await policy.git.open({ path: args.path, use: 'read', operation: 'git.status', signal });
    const status = await adapter.git.status(repo.run, { maxEntries: args.maxEntries });
    const where = status.branch ?? `detached at ${status.head?.slice(0, 12) ?? '?'}`;
    const tracking = status.upstream ? ` (${status.upstream}: ahead ${status.ahead ?? 0}, behind ${status.behind ?? 0})` : '';
    const lines = statusLines(status.entries);
    const notes = [
      ...(status.truncated ? [`${status.total - lines.length} more not shown (raise maxEntries)`] : []),
      ...(status.withheld ? [`${status.withheld} protected path(s) withheld`] : []),
    ];
    const text = [`${repo.topLevel} on ${where}${tracking}: ${status.total === 0 ? 'clean' : `${status.total} changed`}`, ...lines, ...notes].join('\n');
    return { structured: { repository: repo.topLevel, ...status }, text };
  },
});

export const gitDiff = defineTool({
  name: 'git.diff',
  title: 'Show changes',
  description:
    'Unified diff of the working tree against the index (default), of what is staged (staged: true), or between revisions (from, and to or the working tree). Every changed file is listed with its line counts; patches fill maxBytes in order, the rest are listed without one (ask again with paths). No external diff or textconv program runs.',
  input: z.object({
    path: repositoryInput,
    staged: z.boolean().default(false).describe('What is staged, against HEAD'),
    from: revisionInput.optional().describe('Compare from this revision (to `to`, or to the working tree)'),
    to: revisionInput.optional(),
    paths: pathsInput.default([]),
    maxBytes: maxBytesInput,
    contextLines: contextInput,
  }),
  output: diffOutput.extend({ repository: z.string() }),
  payload: ['files[].patch'],
  annotations: READ_ONLY,
  grant: GRANT.gitRead,
  target: (args) => ({ path: args.path, from: args.from ?? null, to: args.to ?? null, staged: args.staged }),
  async run(args, { adapter, policy }, signal) {
    if (args.to !== undefined && args.from === undefined) throw adapterError('INVALID_INPUT', 'git.diff', '`to` needs `from`');
    if (args.staged && args.from !== undefined) throw adapterError('INVALID_INPUT', 'git.diff', 'give either staged or from/to');
    const repo = await policy.git.open({ path: args.path, use: 'read', operation: 'git.diff', signal });
    const paths = await policy.git.paths(repo, args.paths, 'read', 'git.diff');
    const diff: DiffRequest =
      args.from !== undefined ? { kind: 'revisions', from: args.from, ...(args.to ? { to: args.to } : {}) } : { kind: args.staged ? 'staged' : 'worktree' };
    const result = await adapter.git.diff(repo.run, { diff, paths, maxBytes: args.maxBytes, contextLines: args.contextLines });
    return { structured: { repository: repo.topLevel, ...result }, text: diffText(result) };
  },
});

export const gitLog = defineTool({
  name: 'git.log',
  title: 'Commit history',
  description:
    'Commits newest first: hash, parents, author, date and subject (and the message body with body: true), of HEAD or a revision or range (main..feature), optionally only those touching paths. At most limit per call; more: true means skip past them for the next page.',
  input: z.object({
    path: repositoryInput,
    revision: revisionInput.optional().describe('A branch, commit or range (default HEAD)'),
    paths: pathsInput.default([]),
    limit: z.number().int().positive().max(500).default(20),
    skip: z.number().int().min(0).default(0),
    body: z.boolean().default(false).describe('Include each message body'),
  }),
  output: z.object({ repository: z.string(), commits: z.array(commitOutput), more: z.boolean() }),
  annotations: READ_ONLY,
  grant: GRANT.gitRead,
  target: (args) => ({ path: args.path, revision: args.revision ?? 'HEAD' }),
  async run(args, { adapter, policy }, signal) {
    const repo = await policy.git.open({ path: args.path, use: 'read', operation: 'git.log', signal });
    const paths = await policy.git.paths(repo, args.paths, 'read', 'git.log');
    const log = await adapter.git.log(repo.run, {
      ...(args.revision ? { revision: args.revision } : {}),
      paths,
      limit: args.limit,
      skip: args.skip,
      withBody: args.body,
    });
    const lines = log.commits.map((c) => (args.body && c.body ? `${commitLine(c)}\n${indent(c.body)}` : commitLine(c)));
    const text = [...(lines.length ? lines : ['no commits']), ...(log.more ? [`more: call again with skip ${args.skip + args.limit}`] : [])].join('\n');
    return { structured: { repository: repo.topLevel, ...log }, text };
  },
});

export const gitShow = defineTool({
  name: 'git.show',
  title: 'Show a commit or a file at a revision',
  description:
    "A commit (its message and its diff against its first parent, bounded like git.diff; paths: only those files of it), or with file: that file's content at the revision (like git show REV:FILE; binary files are described, not shown). Protected files are refused.",
  input: z.object({
    path: repositoryInput,
    revision: revisionInput.default('HEAD'),
    file: z.string().min(1).max(4096).optional().describe('A file (relative to the top level): show its content at the revision'),
    paths: pathsInput.default([]).describe("Only these files of the commit's diff (a patch left out over maxBytes: ask for it here)"),
    maxBytes: maxBytesInput,
    contextLines: contextInput,
  }),
  output: z.object({
    repository: z.string(),
    kind: z.enum(['commit', 'file']),
    commit: commitOutput.optional(),
    diff: diffOutput.optional(),
    file: z
      .object({
        path: z.string(),
        content: z.string(),
        bytes: z.number().describe('Bytes read (at most maxBytes)'),
        size: z.number().describe("The file's size at the revision"),
        truncated: z.boolean(),
        binary: z.boolean(),
      })
      .optional(),
  }),
  payload: ['diff.files[].patch', 'file.content'],
  annotations: READ_ONLY,
  grant: GRANT.gitRead,
  target: (args) => ({ path: args.path, revision: args.revision, ...(args.file ? { file: args.file } : {}) }),
  async run(args, { adapter, policy }, signal) {
    const repo = await policy.git.open({ path: args.path, use: 'read', operation: 'git.show', signal });
    const file = args.file === undefined ? undefined : (await policy.git.paths(repo, [args.file], 'read', 'git.show'))[0];
    const paths = await policy.git.paths(repo, args.paths, 'read', 'git.show');
    const shown = await adapter.git.show(repo.run, {
      revision: args.revision,
      ...(file ? { path: file } : {}),
      ...(paths.length > 0 ? { paths } : {}),
      maxBytes: args.maxBytes,
      contextLines: args.contextLines,
    });
    if (shown.kind === 'file') {
      const { kind: _kind, revision: _revision, ...content } = shown;
      const text = shown.binary
        ? `${shown.path} at ${args.revision}: binary, ${shown.size} bytes (not shown)`
        : `${shown.content}${shown.truncated ? `\n\n[truncated: the first ${shown.bytes} of ${shown.size} bytes shown; raise maxBytes (up to 1 MiB)]` : ''}`;
      return { structured: { repository: repo.topLevel, kind: 'file' as const, file: content }, text };
    }
    const header = `commit ${shown.commit.hash}\nAuthor: ${shown.commit.author} <${shown.commit.email}>\nDate: ${shown.commit.date}\n\n${indent([shown.commit.subject, shown.commit.body].filter(Boolean).join('\n\n'))}`;
    return {
      structured: { repository: repo.topLevel, kind: 'commit' as const, commit: shown.commit, diff: shown.diff },
      text: `${header}\n\n${diffText(shown.diff)}`,
    };
  },
});

export const gitBranchList = defineTool({
  name: 'git.branch_list',
  title: 'Branches',
  description: 'Local branches (the current one marked, each with its upstream and how far ahead or behind) and remote-tracking branches.',
  input: z.object({ path: repositoryInput }),
  output: z.object({
    repository: z.string(),
    current: z.string().nullable(),
    local: z.array(
      z.object({
        name: z.string(),
        commit: z.string(),
        current: z.boolean(),
        upstream: z.string().optional(),
        ahead: z.number().optional(),
        behind: z.number().optional(),
        subject: z.string(),
        date: z.string(),
      }),
    ),
    remote: z.array(z.object({ name: z.string(), commit: z.string() })),
  }),
  annotations: READ_ONLY,
  grant: GRANT.gitRead,
  target: repoTarget,
  async run(args, { adapter, policy }, signal) {
    const repo = await policy.git.open({ path: args.path, use: 'read', operation: 'git.branch_list', signal });
    const branches = await adapter.git.branches(repo.run);
    const lines = branches.local.map((b) => {
      const track = b.upstream ? ` [${b.upstream}${b.ahead ? ` ahead ${b.ahead}` : ''}${b.behind ? ` behind ${b.behind}` : ''}]` : '';
      return `${b.current ? '*' : ' '} ${b.name} ${b.commit.slice(0, 12)}${track} ${b.subject}`;
    });
    const remote = branches.remote.map((b) => `  remotes/${b.name} ${b.commit.slice(0, 12)}`);
    return { structured: { repository: repo.topLevel, ...branches }, text: [...lines, ...remote].join('\n') || 'no branches yet' };
  },
});

export const gitReadTools = [gitStatus, gitDiff, gitLog, gitShow, gitBranchList];

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
