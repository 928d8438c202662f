/**
 * git's network tools, each behind its own grant and allow-list: git.push (git.push) sends the
 * current branch, never forced; git.pull and git.clone (git.pull) fetch from an allowed remote
 * and write only after every incoming path passed the filesystem rules.
 */
import * as z from 'zod';
import { defineTool, OPEN_WORLD_DESTRUCTIVE } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { exclusive } from './fs-common.js';
import { repositoryInput } from './git-common.js';
import { changing } from './git-write.js';

const remoteInput = z.string().min(1).max(100).default('origin').describe("The remote's name in the repository (its URL must be on the owner's list)");

/** A rejection because the remote has commits the branch has not: pulling first is the way (any other, an unpacker error or a declining hook, is not). */
const BEHIND = /fetch first|non-fast-forward/;

export const gitPush = defineTool({
  name: 'git.push',
  title: 'Push the current branch',
  description:
    'Push the current branch to the branch of the same name on a remote the owner allowed (git.push lists them by repository: github.com/owner/repo). Never forced: a push the remote refuses (it has commits this branch lacks) comes back as rejected. No tags, no upstream change.',
  input: z.object({ path: repositoryInput, remote: remoteInput }),
  output: z.object({
    repository: z.string(),
    remote: z.string(),
    branch: z.string(),
    status: z.enum(['pushed', 'up-to-date', 'rejected']),
    range: z.string().optional(),
    reason: z.string().optional(),
  }),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.gitPush,
  target: (args) => ({ path: args.path, remote: args.remote }),
  async run(args, { adapter, policy }, signal) {
    const repo = await policy.git.open({ path: args.path, use: { push: args.remote }, operation: 'git.push', signal });
    const pushed = await adapter.git.push(repo.run, args.remote);
    const text =
      pushed.status === 'rejected'
        ? `${args.remote} refused ${pushed.branch}: ${pushed.reason ?? 'rejected'}${BEHIND.test(pushed.reason ?? '') ? ' (pull first; pushes are never forced)' : ''}`
        : pushed.status === 'up-to-date'
          ? `${args.remote}/${pushed.branch} is already up to date`
          : `Pushed ${pushed.branch} to ${args.remote}${pushed.range ? ` (${pushed.range})` : ' (new branch)'}`;
    return { structured: { repository: repo.topLevel, ...pushed }, text };
  },
});

export const gitPull = defineTool({
  name: 'git.pull',
  title: 'Pull (fast-forward only)',
  description:
    "Fetch the current branch's namesake from a remote the owner allowed (git.pull) and fast-forward to it. Refused when the branch has commits of its own (no merge, no rebase) or when an incoming file is protected by the filesystem rules.",
  input: z.object({ path: repositoryInput, remote: remoteInput }),
  output: z.object({
    repository: z.string(),
    remote: z.string(),
    branch: z.string(),
    before: z.string().nullable(),
    after: z.string(),
    files: z.array(z.string()),
  }),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.gitPull,
  target: (args) => ({ path: args.path, remote: args.remote }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const repo = await policy.git.open({ path: args.path, use: { pull: args.remote }, operation: 'git.pull', signal });
    const pulled = await changing(deps, repo, {}, (before) =>
      adapter.git.pull(repo.run, args.remote, async (incoming) => {
        policy.git.checkReported(repo, incoming, 'write', 'git.pull');
        await before(incoming);
      }),
    );
    const files = pulled.files.filter((p) => repo.run.visible(p));
    const text =
      pulled.before === pulled.after
        ? `${pulled.branch} is already up to date with ${args.remote}`
        : `Fast-forwarded ${pulled.branch} to ${pulled.after.slice(0, 12)} from ${args.remote} (${files.length} file${files.length === 1 ? '' : 's'}):\n${files.join('\n')}`;
    return { structured: { repository: repo.topLevel, ...pulled, files }, text };
  },
});

export const gitClone = defineTool({
  name: 'git.clone',
  title: 'Clone a repository',
  description:
    'Clone a repository the owner allowed (git.pull) into a new folder inside a writable root, without submodules, optionally shallow (depth). Refused when an incoming file is protected by the filesystem rules; a failed clone leaves nothing behind.',
  input: z.object({
    url: z.string().min(1).max(2048).describe("https://host/owner/repo, git@host:owner/repo, or a local repository's absolute path"),
    destination: z.string().min(1).describe('The new folder: absolute, or relative to the first root'),
    depth: z.number().int().positive().max(1_000_000).optional().describe('Only the last commits (a shallow clone)'),
  }),
  output: z.object({ repository: z.string(), head: z.string().nullable(), branch: z.string().nullable() }),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.gitPull,
  target: (args) => ({ url: args.url, destination: args.destination }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const target = await policy.git.clone(args.url, args.destination, 'git.clone', signal);
    const cloned = await policy.fsLock.run([exclusive(target.path)], () =>
      deps.changes.files([target.path], () =>
        adapter.git.clone(target.run, args.url, target.name, {
          ...(args.depth ? { depth: args.depth } : {}),
          check: async (incoming) => policy.git.checkReported({ topLevel: target.path }, incoming, 'write', 'git.clone'),
        }),
      ),
    );
    const text = `Cloned ${args.url} into ${target.path}${cloned.branch && cloned.head ? ` (${cloned.branch} at ${cloned.head.slice(0, 12)})` : ' (an empty repository: no commits yet)'}`;
    return { structured: { repository: target.path, ...cloned }, text };
  },
});

export const gitRemoteTools = [gitPush, gitPull, gitClone];
