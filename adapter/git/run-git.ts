/**
 * Runs git once, exactly as planned: the policy's program, environment, sandbox and `-c`
 * overrides, argv only, no shell. Its output is kept as bytes (porcelain `-z` output holds NUL
 * bytes and paths need not be UTF-8), bounded, and a caller that has read enough ends it early.
 * A timeout or an abort ends the whole process group, as for commands (run-command.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { adapterError } from '../contract/errors.js';
import { hideUrlCredentials, type GitProgram, type GitRun } from '../contract/git.js';
import { launch, sandboxUnstarted } from '../process/run-command.js';
import { coverLost } from '../process/sandbox/cover-watch.js';
import { terminateGroup } from '../process/kill-tree.js';
import { gitMistake } from './git-mistakes.js';

/** git's own messages: enough for the reason, never a flood. */
const MAX_STDERR_BYTES = 16 * 1024;
const KILL_GRACE_MS = 1000;
const LINGER_MS = 500;

export interface GitOutput {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** stdout went past maxBytes (and git was stopped there). */
  truncated: boolean;
}

export interface RunGitOptions {
  /** stdout kept; past it git is stopped (default 64 MiB). */
  maxBytes?: number;
  /** Written to git's stdin, which is then closed. */
  input?: string;
  /** Operation named in errors. */
  operation: string;
  /** Exit codes that are answers, not failures (default: 0 only). */
  ok?: readonly number[];
}

type Runnable = GitProgram & Partial<Pick<GitRun, 'sandbox' | 'config' | 'signal' | 'timeoutMs'>> & { cwd: string };

const DEFAULT_TIMEOUT_MS = 60_000;

export async function runGit(run: Runnable, args: readonly string[], options: RunGitOptions): Promise<GitOutput> {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const argv = [...(run.config ?? []).flatMap((pair) => ['-c', pair]), ...args];
  const timeoutMs = run.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const launched = await launch(
    { file: run.file, args: argv, cwd: run.cwd, env: run.env, timeoutMs, maxOutputBytes: maxBytes, ...(run.sandbox ? { sandbox: run.sandbox } : {}) },
    process.platform,
    options.input === undefined ? 'ignore' : 'pipe',
  );
  const { child, pid, exited, closed } = launched;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  let stderr = Buffer.alloc(0);
  let stopped: 'timeout' | 'abort' | 'enough' | null = null;
  const stop = (why: 'timeout' | 'abort' | 'enough') => {
    if (stopped) return;
    stopped = why;
    void terminateGroup(pid, KILL_GRACE_MS, process.platform);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    if (truncated) return;
    const room = maxBytes - bytes;
    if (chunk.length > room) {
      chunks.push(Buffer.from(chunk.subarray(0, room)));
      bytes = maxBytes;
      truncated = true;
      stop('enough');
      return;
    }
    chunks.push(chunk);
    bytes += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < MAX_STDERR_BYTES) stderr = Buffer.concat([stderr, chunk]).subarray(0, MAX_STDERR_BYTES);
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('abort');
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted) onAbort();
  try {
    const exit = await exited;
    // A descendant still holding the pipes (a credential cache daemon) must not hold the call.
    const lingering = await Promise.race([closed.then(() => false), sleep(LINGER_MS).then(() => true)]);
    if (lingering) {
      await terminateGroup(pid, KILL_GRACE_MS, process.platform);
      child.stdout.destroy();
      child.stderr.destroy();
    }
    if (stopped === 'timeout') throw adapterError('TIMEOUT', options.operation, `git ${args[0]} did not finish within ${timeoutMs} ms (git.maxRuntimeMs)`);
    if (stopped === 'abort') throw adapterError('PRECONDITION_FAILED', options.operation, 'the request was cancelled; git was stopped');
    const unstarted = sandboxUnstarted(launched, exit.code, stderr.toString('utf8'), options.operation);
    if (unstarted) throw unstarted;
    const lost = launched.coverLost();
    if (lost !== null) throw adapterError('PRECONDITION_FAILED', options.operation, `git ${args[0]} was stopped: ${coverLost(lost)}`);
    const result = { code: exit.code, stdout: Buffer.concat(chunks, bytes), stderr: stderr.toString('utf8'), truncated };
    if (!truncated && !(options.ok ?? [0]).includes(exit.code ?? -1)) throw gitFailure(args, result, options.operation);
    return result;
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
  }
}

/** git's reason in its own words (the `fatal:`/`error:` lines), bounded. */
export function gitFailure(args: readonly string[], output: Pick<GitOutput, 'code' | 'stderr'>, operation: string): Error {
  // A revision read only as a commit (read-ops.ts commitOnly) that names a blob or a tree.
  const notCommit = /error: (.{1,200})\^\{commit\}: expected commit type/.exec(output.stderr);
  if (notCommit)
    return adapterError('INVALID_INPUT', operation, `${shown(notCommit[1]!)} is not a commit: only commits are compared (a file's or folder's id is refused)`);
  const reason = gitMessage(output.stderr) || `exit code ${output.code}`;
  const command = args.find((arg) => !arg.startsWith('-')) ?? args[0];
  const mistake = gitMistake(output.stderr);
  if (mistake) return adapterError(mistake.code, operation, `git ${command}: ${reason} (${mistake.hint})`, { exitCode: output.code });
  return adapterError('OS_ERROR', operation, `git ${command} failed: ${reason}`, { exitCode: output.code });
}

export function gitMessage(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const told = lines.filter((line) => /^(fatal|error|hint|warning):/.test(line));
  const text = shown((told.length > 0 ? told : lines).join(' '));
  return text.length > 1000 ? `${text.slice(0, 1000)}...` : text;
}

/** git's words as they may be shown: no control characters, no credentials in a URL. */
function shown(text: string): string {
  return hideUrlCredentials(text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '?'));
}
