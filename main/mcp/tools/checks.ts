/**
 * verify_changes runs a project's checks (tests, lint, typecheck) as the owner configured them;
 * git.commit_verified runs them, and only when they pass stages exactly the named paths and
 * commits. Checks run one after another, each like a command (the sandbox, the display gate).
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import { CHECK_LEVELS } from '../../config/schema.js';
import type { CheckProject, ProjectCheck } from '../../policy/checks.js';
import { defineTool, DESTRUCTIVE, type ToolDeps } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { commitOutput, pathsInput, repositoryInput } from './git-common.js';
import { commitStaged, changing } from './git-write.js';

const KiB = 1024;
const levelInput = z.enum(CHECK_LEVELS).default('normal').describe('fast: quick gates (lint, typecheck); normal: adds the tests; strict: every check');
const tailInput = z
  .number()
  .int()
  .min(256)
  .max(64 * KiB)
  .default(4 * KiB)
  .describe("Bytes kept from the end of each check's stdout and stderr");

const checkResult = z.object({
  name: z.string(),
  command: z.array(z.string()),
  level: z.enum(CHECK_LEVELS),
  passed: z.boolean(),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  stdoutTail: z.string(),
  stderrTail: z.string(),
  outputCut: z.boolean().describe('Earlier output was left out: only the tail is shown'),
});
type CheckResult = z.output<typeof checkResult>;

const checksOutput = z.object({
  project: z.string(),
  level: z.enum(CHECK_LEVELS),
  passed: z.boolean(),
  checks: z.array(checkResult),
  skipped: z.array(z.string()).describe('Checks of the project not run: not at this level, or not among those asked for'),
});

export const verifyChanges = defineTool({
  name: 'verify_changes',
  title: "Run the project's checks",
  description:
    'Run the checks the owner configured for the project holding path (checks.projects: tests, lint, typecheck...), one after another, at a level: fast (lint, typecheck), normal (and the tests), strict (everything), or exactly the named checks. Each result says passed, exit code, duration and the tail of its output. Checks run like commands, in the command sandbox when there is one.',
  input: z.object({
    path: repositoryInput.describe('The project, or a folder inside it (default: the first root)'),
    level: levelInput,
    checks: z.array(z.string().min(1).max(40)).max(50).optional().describe('Run exactly these checks, whatever the level'),
    tailBytes: tailInput,
  }),
  output: checksOutput,
  payload: ['checks[].stdoutTail', 'checks[].stderrTail'],
  annotations: DESTRUCTIVE,
  grant: GRANT.checks,
  target: (args) => ({ path: args.path, level: args.level }),
  async run(args, deps, signal) {
    const project = await deps.policy.checks.project(args.path, 'verify_changes');
    const result = await runChecks(deps, project, args.level, args.checks, args.tailBytes, signal);
    return { structured: result, text: checksText(result) };
  },
});

export const gitCommitVerified = defineTool({
  name: 'git.commit_verified',
  title: 'Verify, then commit named paths',
  description:
    "Commit exactly the named paths, only if the project's checks pass: refused when something else is already staged; then the checks run (as verify_changes, at level); when one fails nothing is staged or committed and committed is false; when all pass the paths are staged and committed locally. Pushing stays a separate call (git.push).",
  input: z.object({
    path: repositoryInput,
    paths: pathsInput.min(1),
    message: z.string().trim().min(1).max(20_000),
    level: levelInput,
    tailBytes: tailInput,
  }),
  output: z.object({
    repository: z.string(),
    committed: z.boolean(),
    commit: commitOutput.optional(),
    branch: z.string().nullable().optional(),
    verification: checksOutput,
  }),
  payload: ['verification.checks[].stdoutTail', 'verification.checks[].stderrTail'],
  annotations: DESTRUCTIVE,
  grant: GRANT.verifiedCommit,
  target: (args) => ({ path: args.path, paths: args.paths.length, level: args.level }),
  async run(args, deps, signal) {
    const { adapter, policy } = deps;
    const op = 'git.commit_verified';
    const repo = await policy.git.open({ path: args.path, use: 'write', operation: op, signal });
    const paths = await policy.git.paths(repo, args.paths, 'write', op);
    const project = await policy.checks.project(repo.topLevel, op);
    const status = await adapter.git.status(repo.run, { maxEntries: 10_000 });
    const staged = status.entries.filter((e) => e.staged !== undefined);
    const under = (p: string, n: string) => n === '.' || p === n || p.startsWith(`${n}/`);
    const named = (p: string) => paths.some((n) => under(p, n));
    // Before the checks, which can take minutes: a named path with nothing to commit is the caller's to put right now.
    const unchanged = status.truncated ? [] : paths.filter((n) => !status.entries.some((e) => under(e.path, n) || (e.from !== undefined && under(e.from, n))));
    if (unchanged.length > 0)
      throw adapterError(
        'PRECONDITION_FAILED',
        op,
        `nothing to commit under ${unchanged.join(', ')}: no change there (or no such path); git.status shows what changed. Nothing was run`,
      );
    const unrelated = staged.filter((e) => !named(e.path) || (e.from !== undefined && !named(e.from)));
    if (unrelated.length > 0) {
      throw adapterError(
        'PRECONDITION_FAILED',
        op,
        `the index already holds staged changes this call did not name (${unrelated
          .map((e) => e.path)
          .slice(0, 20)
          .join(', ')}): unstage them (git.unstage) or name them in paths`,
      );
    }
    const verification = await runChecks(deps, project, args.level, undefined, args.tailBytes, signal);
    if (!verification.passed) {
      return {
        structured: { repository: repo.topLevel, committed: false, verification },
        text: `Not committed: the checks failed, nothing was staged.\n${checksText(verification)}`,
      };
    }
    await changing(deps, repo, {}, () => adapter.git.add(repo.run, paths, async (listed) => policy.git.checkReported(repo, listed, 'read', op)));
    const committed = await commitStaged(deps, repo, args.message, op, named);
    const { commit, branch } = committed.structured;
    return { structured: { repository: repo.topLevel, committed: true, commit, branch, verification }, text: `${committed.text}\n${checksText(verification)}` };
  },
});

export const checkTools = [verifyChanges, gitCommitVerified];

async function runChecks(
  deps: ToolDeps,
  project: CheckProject,
  level: (typeof CHECK_LEVELS)[number],
  names: string[] | undefined,
  tailBytes: number,
  signal: AbortSignal,
) {
  const { run, skipped } = deps.policy.checks.select(project, level, names, 'verify_changes');
  const checks: CheckResult[] = [];
  for (const check of run) checks.push(await runCheck(deps, project, check, tailBytes, signal));
  return { project: project.path, level, passed: checks.every((c) => c.passed), checks, skipped };
}

async function runCheck(deps: ToolDeps, project: CheckProject, check: ProjectCheck, tailBytes: number, signal: AbortSignal): Promise<CheckResult> {
  const plan = await deps.policy.checks.plan(project, check);
  const r = await deps.policy.children.run(signal, () => deps.adapter.processes.runCommand({ ...plan, keepOutput: 'tail', signal }));
  const tail = (text: string, binary: { bytes: number } | undefined) => (binary ? `[${binary.bytes} bytes of binary output]` : lastBytes(text, tailBytes));
  const stdoutTail = tail(r.stdout, r.stdoutBinary);
  const stderrTail = tail(r.stderr, r.stderrBinary);
  return {
    name: check.name,
    command: check.command,
    level: check.level,
    passed: r.exitCode === 0 && !r.timedOut,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    stdoutTail,
    stderrTail,
    outputCut: r.stdoutTruncated || r.stderrTruncated || stdoutTail.length < r.stdout.length || stderrTail.length < r.stderr.length,
  };
}

/** The last `bytes` of text, starting on a whole line when one begins within it. */
function lastBytes(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  const tail = encoded
    .subarray(encoded.length - bytes)
    .toString('utf8')
    .replace(/^\uFFFD+/, '');
  const line = tail.indexOf('\n');
  return line >= 0 && line < tail.length - 1 ? tail.slice(line + 1) : tail;
}

function checksText(result: z.output<typeof checksOutput>): string {
  if (result.checks.length === 0)
    return `No check of ${result.project} runs at level ${result.level}${result.skipped.length ? ` (not run: ${result.skipped.join(', ')})` : ''}`;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const summary = result.checks.map((c) =>
    c.passed
      ? `${c.name} passed (${seconds(c.durationMs)})`
      : `${c.name} FAILED (${c.timedOut ? 'timed out' : c.signal ? `killed by ${c.signal}` : `exit ${c.exitCode}`}, ${seconds(c.durationMs)})`,
  );
  // Every check's output tail, failed ones first: the text carries them whole (they are the payload), a passed check's warnings included.
  const outputs = [...result.checks.filter((c) => !c.passed), ...result.checks.filter((c) => c.passed && (c.stdoutTail || c.stderrTail))].map(
    (c) => `--- ${c.name}: ${c.command.join(' ')} (end of its output) ---\n${[c.stdoutTail, c.stderrTail].filter(Boolean).join('\n') || '(no output)'}`,
  );
  const head = `${result.passed ? 'All checks passed' : 'Checks failed'} in ${result.project} at level ${result.level}: ${summary.join(', ')}${result.skipped.length ? `; not run (not at this level, or not asked for): ${result.skipped.join(', ')}` : ''}`;
  return [head, ...outputs].join('\n');
}
