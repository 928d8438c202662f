/** shell.exec: one allowed program with an argv array, no shell, bounded in time and output. */
import * as z from 'zod';
import { defineTool, OPEN_WORLD_DESTRUCTIVE } from '../tool.js';

export const shellExec = defineTool({
  name: 'shell.exec',
  title: 'Run a command',
  description:
    'Run one allowed program with an argument array (no shell: pipes, globs and && are not interpreted) and wait for it. Returns exit code, stdout, stderr (each bounded), duration and whether it timed out. A non-zero exit is a normal result. stdin is closed. system.info lists the allowed commands. ' +
    'A few commands run at once; past that, calls wait briefly or fail with TIMEOUT.',
  input: z.object({
    command: z.string().min(1).describe('Program name on the allow-list, or its absolute path'),
    args: z.array(z.string()).default([]),
    cwd: z.string().min(1).optional().describe('Working directory inside the allowed roots (default: the first root)'),
    env: z
      .record(z.string(), z.string())
      .optional()
      .describe('Extra environment variables, when the owner allows them: locale, TZ, TERM and the names system.info lists'),
    timeoutMs: z.number().int().positive().optional().describe('Kill the command after this long (capped by the server limit)'),
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
  }),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  enabled: (c) => c.shell.enabled && c.shell.allowedCommands.length > 0,
  // The command name and argument count only: arguments can carry secrets.
  target: (args) => ({ command: args.command, argc: args.args.length, ...(args.cwd ? { cwd: args.cwd } : {}) }),
  async run(args, { adapter, policy }, signal) {
    const plan = await policy.shell.plan(args);
    // At most shell.maxConcurrent children at once, server-wide; the rest wait in a bounded queue.
    const result = await policy.children.run(signal, () => adapter.processes.runCommand({ ...plan, signal }));
    return { structured: result, text: summarize(args.command, result) };
  },
});

function summarize(
  command: string,
  r: {
    exitCode: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
    durationMs: number;
    timedOut: boolean;
    stdoutTruncated: boolean;
    stderrTruncated: boolean;
  },
): string {
  const status = r.timedOut ? `timed out after ${r.durationMs} ms` : r.signal ? `killed by ${r.signal}` : `exit code ${r.exitCode}`;
  const parts = [`${command}: ${status} (${r.durationMs} ms)`];
  if (r.stdout) parts.push(`stdout${r.stdoutTruncated ? ' (truncated)' : ''}:\n${r.stdout}`);
  if (r.stderr) parts.push(`stderr${r.stderrTruncated ? ' (truncated)' : ''}:\n${r.stderr}`);
  return parts.join('\n');
}
