/** shell.exec: one allowed program with an argv array, no shell, bounded in time and output. */
import * as z from 'zod';
import type { ExecResult } from '../../../adapter/contract/processes.js';
import type { ShellPlan } from '../../policy/shell.js';
import { defineTool, OPEN_WORLD_DESTRUCTIVE } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { binaryOutput, describeStream, processHandle, sandboxStopped } from './process-output.js';

export const shellExec = defineTool({
  name: 'shell.exec',
  title: 'Run a command',
  description:
    'Run one allowed program with an argument array (no shell: pipes, globs and && are not interpreted) and wait for it. Returns exit code, stdout, stderr (each bounded; binary output as its size and a preview), duration and whether it timed out. A non-zero exit is a normal result. stdin is closed. ' +
    'Without timeoutMs, a command still running after promoteAfterMs (default 60 s) keeps running under a processHandle (read it with process.output, end it with process.stop) instead of being lost: it then runs until it exits, like a process.start one. ' +
    'system.info lists the allowed commands. A few commands run at once; past that, calls wait briefly or fail with TIMEOUT.',
  input: z.object({
    command: z.string().min(1).describe('Program name on the allow-list, or its absolute path'),
    args: z.array(z.string()).default([]),
    cwd: z.string().min(1).optional().describe('Working directory inside the allowed roots (default: the first root)'),
    env: z
      .record(z.string(), z.string())
      .optional()
      .describe('Extra environment variables, when the owner allows them: locale, TZ, TERM and the names system.info lists'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Kill the command after this long (capped by the server limit); no promotion then, unless promoteAfterMs is given too'),
    promoteAfterMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Still running after this long (default 60 s, at most the server limit): return a processHandle and the output so far'),
  }),
  output: z.object({
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    durationMs: z.number(),
    timedOut: z.boolean(),
    stdoutTruncated: z.boolean(),
    stderrTruncated: z.boolean(),
    stdoutBinary: binaryOutput.optional(),
    stderrBinary: binaryOutput.optional(),
    processHandle: processHandle.optional().describe('Set when the command still runs: pass it to process.output / process.stop'),
    handlesFull: z
      .boolean()
      .optional()
      .describe('True when the command outlived promoteAfterMs but every handle (shell.maxProcesses) held a running process, so the call waited for it'),
    sandboxStopped,
  }),
  payload: ['stdout', 'stderr'],
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.commands,
  // The command name and argument count only: arguments can carry secrets.
  target: (args) => ({ command: args.command, argc: args.args.length, ...(args.cwd ? { cwd: args.cwd } : {}) }),
  async run(args, { adapter, policy }, signal) {
    const plan = await policy.programs.command(args);
    // At most shell.maxConcurrent commands inside calls, server-wide. A command moved to a handle
    // gives its slot back: from then on shell.maxProcesses bounds it, as it does process.start.
    const result = await policy.children.run(signal, () => adapter.processes.runCommand({ ...plan, signal }));
    return { structured: result, text: summarize(args.command, result, plan) };
  },
});

export const shellTools = [shellExec];

function summarize(command: string, r: ExecResult, plan: ShellPlan): string {
  const status = r.processHandle
    ? `still running after ${r.durationMs} ms; it goes on as ${r.processHandle} (process.output reads more, process.stop ends it)`
    : r.timedOut
      ? `timed out after ${r.durationMs} ms`
      : r.sandboxStopped
        ? `stopped by the sandbox: ${r.sandboxStopped}`
        : r.signal
          ? `killed by ${r.signal}`
          : `exit code ${r.exitCode}`;
  const parts = [`${command}: ${status}${r.processHandle ? '' : ` (${r.durationMs} ms)`}`];
  if (r.handlesFull) {
    parts.push(
      `it was not moved to a handle at ${plan.promoteAfterMs} ms: all ${plan.handles.maxHandles} handles (shell.maxProcesses) hold running processes, so the call waited for it (up to ${plan.timeoutMs} ms); process.stop frees one`,
    );
  }
  const out = describeStream('stdout', r.stdout, r.stdoutBinary, r.stdoutTruncated);
  const err = describeStream('stderr', r.stderr, r.stderrBinary, r.stderrTruncated);
  if (out) parts.push(out);
  if (err) parts.push(err);
  return parts.join('\n');
}
