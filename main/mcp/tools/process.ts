/** process.list and process.kill: the process policy decides, the adapter lists and signals. */
import * as z from 'zod';
import { POSIX_SIGNALS } from '../../../adapter/contract/processes.js';
import { defineTool, DESTRUCTIVE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { digits } from '../answer/answer-budget.js';
import { lineSafe } from './line-safe.js';

const DEFAULT_LIMIT = 500;
const SIGNALS = POSIX_SIGNALS;
/** A listed command line is cut to this many characters (a Java classpath alone can be 30 KB): one short line a process. */
export const ARGS_CHARS = 300;

/** args cut to `max` characters in all (spaces between them counted); the cut argument says how much was left out. */
export function shortArgs(args: readonly string[], max = ARGS_CHARS): string[] {
  const out: string[] = [];
  let left = max;
  for (const [i, arg] of args.entries()) {
    if (arg.length <= left) {
      out.push(arg);
      left -= arg.length + 1;
      continue;
    }
    // Never split a surrogate pair.
    const end = left > 0 && /[\uD800-\uDBFF]/.test(arg[left - 1]!) ? left - 1 : Math.max(0, left);
    const omitted = args.slice(i).reduce((sum, a) => sum + a.length + 1, -1) - end;
    out.push(`${arg.slice(0, end)}…[${digits(omitted)} more characters; fullArgs: true shows them]`);
    break;
  }
  return out;
}

/** One process as one text line: pid ppid user command args. */
export function processRow(p: { pid: number; ppid: number; user: string; command: string; args: readonly string[] }): string {
  // A command line may hold a newline (a `bash -c` script), and the list is one line a process.
  return lineSafe(`${p.pid} ${p.ppid} ${p.user} ${p.command} ${p.args.slice(1).join(' ')}`.trimEnd());
}

export const processList = defineTool({
  name: 'process.list',
  title: 'List processes',
  description:
    `List running processes (pid, parent pid, user, command, arguments), optionally only those whose command or arguments contain a substring. At most limit (default ${DEFAULT_LIMIT}). Kernel threads are left out unless kernelThreads is true. ` +
    `Each command line is cut to ${ARGS_CHARS} characters unless fullArgs is true (match still searches all of it). ` +
    'Secret-looking values in command lines (--password=..., TOKEN=..., user:password@ in URLs) are shown as ***.',
  input: z.object({
    match: z.string().min(1).optional().describe('Case-insensitive substring of the command or its (redacted) arguments'),
    limit: z.number().int().positive().max(10_000).default(DEFAULT_LIMIT),
    kernelThreads: z.boolean().default(false).describe('Include Linux kernel threads (no command line; never signalled)'),
    offset: z.number().int().min(0).default(0).describe('Processes to skip (the nextOffset of the previous page)'),
    fullArgs: z.boolean().default(false).describe(`Whole command lines instead of their first ${ARGS_CHARS} characters`),
  }),
  output: z.object({
    processes: z.array(z.object({ pid: z.number(), ppid: z.number(), user: z.string(), command: z.string(), args: z.array(z.string()) })),
    truncated: z.boolean(),
    total: z.number().int().describe('Processes that match'),
    nextOffset: z.number().int().optional().describe('Set when more follow: pass it as offset'),
  }),
  payload: ['processes'],
  annotations: READ_ONLY,
  grant: GRANT.processList,
  target: (args) => ({ match: args.match ?? null }),
  async run(args, { adapter, policy }) {
    const listed = await adapter.processes.listProcesses();
    const all = policy.process.visible(listed, args.match, { kernelThreads: args.kernelThreads });
    const page = all.slice(args.offset, args.offset + args.limit);
    const processes = args.fullArgs ? page : page.map((p) => ({ ...p, args: shortArgs(p.args) }));
    const truncated = all.length > args.offset + processes.length;
    const nextOffset = truncated ? args.offset + processes.length : undefined;
    const hidden = args.kernelThreads ? 0 : listed.filter((p) => p.kernel).length;
    const rows = processes.map(processRow);
    const head = `${all.length} process${all.length === 1 ? '' : 'es'}${args.offset || truncated ? ` (${args.offset + 1}-${args.offset + processes.length} shown)` : ''}: pid ppid user command args`;
    const more = nextOffset === undefined ? '' : `\n[more: offset ${nextOffset}]`;
    const kernel = hidden ? `\n[${hidden} kernel threads left out; kernelThreads: true lists them]` : '';
    const text = `${processes.length ? `${head}\n${rows.join('\n')}${more}` : 'no matching processes'}${kernel}`;
    return { structured: { processes, truncated, total: all.length, ...(nextOffset === undefined ? {} : { nextOffset }) }, text };
  },
});

export const processKill = defineTool({
  name: 'process.kill',
  title: 'Signal a process',
  description:
    `Send a signal (default SIGTERM) to a process by pid; a thread id signals the process it belongs to. Allowed signals: ${SIGNALS.join(', ')}. ` +
    'This server, the programs that started it, pid 1 and kernel threads are refused.',
  input: z.object({ pid: z.number().int().positive(), signal: z.enum(SIGNALS).default('SIGTERM') }),
  output: z.object({ pid: z.number().describe('The process signalled'), signal: z.string() }),
  annotations: DESTRUCTIVE,
  grant: GRANT.processKill,
  target: (args) => ({ pid: args.pid, signal: args.signal }),
  async run(args, { adapter, policy }) {
    const target = await policy.process.signalTarget(args.pid);
    await adapter.processes.killProcess(target.pid, args.signal);
    const which = target.thread ? `${target.pid} (the process of thread ${args.pid})` : String(target.pid);
    return { structured: { pid: target.pid, signal: args.signal }, text: `Sent ${args.signal} to ${which}` };
  },
});

export const processTools = [processList, processKill];
