/**
 * What a repository is, for the policy (PolicyPort.gitRepository): where its folders really are,
 * every setting git reads there with its scope, its active hooks and borrowed object folders.
 * It runs `git rev-parse`, `git config --list` and (for remotes) `git remote -v`, which read
 * settings and never run a program a setting names; so the probe needs no sandbox, and the
 * policy can refuse before git does anything that would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { adapterError } from '../contract/errors.js';
import type { GitProgram, GitRemote, RepositoryFacts } from '../contract/git.js';
import { parseConfigList } from './parse/config-list.js';
import type { ProbeCache } from './probe-cache.js';
import { gitMessage, runGit } from './run-git.js';

/** Every hook git runs (githooks(5)), client and server side. */
export const HOOK_NAMES: ReadonlySet<string> = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]);

/** git follows alternates of alternates up to this depth. */
const MAX_ALTERNATE_DEPTH = 5;
const op = 'git';

export async function probeRepository(
  dir: string,
  program: GitProgram,
  options: { remotes?: boolean } = {},
  cache?: ProbeCache,
): Promise<RepositoryFacts | null> {
  const run = { ...program, cwd: dir, timeoutMs: 30_000 };
  const remembered = cache?.get(dir, program);
  const started = Date.now();
  const located = remembered
    ? { stdout: remembered.located, stderr: '' }
    : await runGit(run, ['rev-parse', '--is-bare-repository', '--absolute-git-dir', '--git-common-dir', '--show-toplevel'], {
        operation: op,
        ok: [0, 128],
      });
  const lines = located.stdout.toString('utf8').split('\n').filter(Boolean);
  const [bare, gitDir = '', common = ''] = lines;
  const topLevel = bare === 'true' ? null : lines[3];
  if (lines.length < 3 || topLevel === undefined) {
    if (/not a git repository/i.test(located.stderr)) return null;
    throw adapterError('PRECONDITION_FAILED', op, `git cannot use ${dir}: ${gitMessage(located.stderr) || 'it is inside a git folder, not a working tree'}`);
  }
  const commonDir = real(path.resolve(dir, common));
  const listed = remembered?.listed ?? (await runGit(run, ['config', '--list', '--show-scope', '--show-origin', '-z'], { operation: op })).stdout;
  const config = parseConfigList(listed);
  if (cache && !remembered) {
    const runs = { located: located.stdout.toString('utf8'), listed };
    cache.set(program, runs, { dir, topLevel: topLevel === null ? null : topLevel, gitDir, commonDir, config }, started);
  }
  const facts: RepositoryFacts = {
    topLevel: topLevel === null ? null : real(topLevel),
    gitDir: real(gitDir),
    commonDir,
    config,
    hooksDir: path.join(commonDir, 'hooks'),
    hooks: activeHooks(path.join(commonDir, 'hooks')),
    alternates: alternates(path.join(commonDir, 'objects'), 0),
  };
  if (options.remotes) facts.remotes = parseRemotes((await runGit(run, ['remote', '-v'], { operation: op })).stdout.toString('utf8'));
  return facts;
}

function real(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** Files git would run as hooks: a hook's name, a regular file (links followed), executable. */
function activeHooks(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => HOOK_NAMES.has(name))
    .filter((name) => {
      const stat = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
      return stat?.isFile() === true && (process.platform === 'win32' || (stat.mode & 0o111) !== 0);
    })
    .sort();
}

/** objects/info/alternates, and theirs: absolute folders (relative lines are relative to the objects folder). */
function alternates(objects: string, depth: number): string[] {
  if (depth >= MAX_ALTERNATE_DEPTH) return [];
  let text: string;
  try {
    text = fs.readFileSync(path.join(objects, 'info', 'alternates'), 'utf8');
  } catch {
    return [];
  }
  const listed = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => path.resolve(objects, line.replace(/^"(.*)"$/, '$1')));
  return [...listed, ...listed.flatMap((other) => alternates(other, depth + 1))];
}

/** `git remote -v`: NAME TAB URL " (fetch)" / " (push)". */
export function parseRemotes(output: string): GitRemote[] {
  const remotes = new Map<string, GitRemote>();
  for (const line of output.split('\n')) {
    const match = /^([^\t]+)\t(.*) \((fetch|push)\)$/.exec(line);
    if (!match) continue;
    const [, name = '', url = '', kind] = match;
    const remote = remotes.get(name) ?? { name, fetch: [], push: [] };
    remote[kind === 'fetch' ? 'fetch' : 'push'].push(url);
    remotes.set(name, remote);
  }
  return [...remotes.values()];
}
