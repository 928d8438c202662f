/** process.list and process.kill. */
import * as z from 'zod';
import { adapterError } from '../../../adapter/errors.js';
import { POSIX_SIGNALS } from '../../../adapter/process/signals.js';
import { defineTool, DESTRUCTIVE, READ_ONLY } from '../tool.js';

const DEFAULT_LIMIT = 500;
const SIGNALS = POSIX_SIGNALS;

export const processList = defineTool({
  name: 'process.list',
  title: 'List processes',
  description: `List running processes (pid, parent pid, user, command, arguments), optionally only those whose command or arguments contain a substring. At most limit (default ${DEFAULT_LIMIT}).`,
  input: z.object({
    match: z.string().min(1).optional().describe('Case-insensitive substring of the command or its arguments'),
    limit: z.number().int().positive().max(10_000).default(DEFAULT_LIMIT),
  }),
  output: z.object({
    processes: z.array(z.object({ pid: z.number(), ppid: z.number(), user: z.string(), command: z.string(), args: z.array(z.string()) })),
    truncated: z.boolean(),
  }),
  annotations: READ_ONLY,
  enabled: (c) => c.process.list,
  target: (args) => ({ match: args.match ?? null }),
  async run(args, { adapter }) {
    const needle = args.match?.toLowerCase();
    const all = (await adapter.processes.listProcesses()).filter(
      (p) => !needle || p.command.toLowerCase().includes(needle) || p.args.join(' ').toLowerCase().includes(needle),
    );
    const processes = all.slice(0, args.limit);
    const truncated = all.length > processes.length;
    const text = processes.map((p) => `${p.pid}\t${p.user}\t${p.command} ${p.args.slice(1).join(' ')}`.trimEnd()).join('\n') || 'no matching processes';
    return { structured: { processes, truncated }, text: truncated ? `${text}\n[first ${processes.length} of ${all.length}]` : text };
  },
});

export const processKill = defineTool({
  name: 'process.kill',
  title: 'Signal a process',
  description: `Send a signal (default SIGTERM) to a process by pid. Allowed signals: ${SIGNALS.join(', ')}. The server's own process and pid 1 are refused.`,
  input: z.object({ pid: z.number().int().positive(), signal: z.enum(SIGNALS).default('SIGTERM') }),
  output: z.object({ pid: z.number(), signal: z.string() }),
  annotations: DESTRUCTIVE,
  enabled: (c) => c.process.kill,
  target: (args) => ({ pid: args.pid, signal: args.signal }),
  async run(args, { adapter }) {
    if (args.pid === process.pid)
      throw adapterError('INVALID_INPUT', 'process.kill', `pid ${args.pid} is this MCP server; stop it from its own window or terminal`);
    if (args.pid === 1) throw adapterError('INVALID_INPUT', 'process.kill', 'pid 1 is the init process and is never signalled');
    await adapter.processes.killProcess(args.pid, args.signal);
    return { structured: { pid: args.pid, signal: args.signal }, text: `Sent ${args.signal} to ${args.pid}` };
  },
});

export const processTools = [processList, processKill];
