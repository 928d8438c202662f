/**
 * Processes across calls, through explicit handles: process.start (same policy as
 * shell.exec), then process.output, process.write, process.status and process.stop with the
 * handle it returned. Dev servers, watchers, REPLs and anything longer than one call.
 */
import * as z from 'zod';
import { PROCESS_WRITE_WAIT_MS, type HandleOutput, type HandleStatus, type StreamChunk } from '../../../adapter/contract/processes.js';
import { defineTool, DESTRUCTIVE, OPEN_WORLD_DESTRUCTIVE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { processHandle, sandboxStopped } from './process-output.js';

const KiB = 1024;
/** Granted with shell.exec: the same allow-list decides what may start. */

const status = {
  processHandle,
  pid: z.number(),
  state: z.enum(['running', 'exited']),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  sandboxStopped,
  startedAt: z.string(),
  durationMs: z.number(),
  stdoutBytes: z.number().describe('Bytes written to stdout so far (the offset after the last one)'),
  stderrBytes: z.number(),
  stdinOpen: z.boolean(),
};

const stream = z.object({
  text: z.string(),
  binary: z.object({ bytes: z.number(), previewBase64: z.string(), base64: z.string() }).optional().describe('When the chunk is not text'),
  offset: z.number().describe('Where this chunk starts'),
  nextOffset: z.number().describe('Pass as the offset next time'),
  droppedBytes: z.number().describe('Output overwritten before it was read (the server keeps the last shell.maxOutputBytes per stream)'),
});

export const processStart = defineTool({
  name: 'process.start',
  title: 'Start a long-running process',
  description:
    'Start one allowed program (same rules as shell.exec: allow-list, no shell, cwd in the roots) that keeps running across calls, with stdin open, until it exits, process.stop ends it or nobody asks about it for a while. Returns at once with a processHandle for process.output, process.write, process.status and process.stop. For dev servers, watchers and interactive programs.',
  input: z.object({
    command: z.string().min(1).describe('Program name on the allow-list, or its absolute path'),
    args: z.array(z.string()).default([]),
    cwd: z.string().min(1).optional().describe('Working directory inside the allowed roots (default: the first root)'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables, when the owner allows them'),
  }),
  output: z.object(status),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.commands,
  target: (args) => ({ command: args.command, argc: args.args.length }),
  async run(args, { adapter, policy }, signal) {
    const plan = await policy.programs.command({ ...args, timeoutMs: undefined, promoteAfterMs: undefined });
    // A start takes a shell.maxConcurrent slot (and waits out an unread answer backlog) only while
    // it starts: a running handle is bounded by shell.maxProcesses, not by the command slots.
    const started = await policy.children.run(signal, () => adapter.processes.startProcess(plan));
    return { structured: started, text: `Started ${args.command} (pid ${started.pid}) as ${started.processHandle}` };
  },
});

export const processOutput = defineTool({
  name: 'process.output',
  title: 'Read a process’s output',
  description:
    'Output of a process started with process.start (or moved from shell.exec) after the given offsets, and its state. With waitMs, waits up to that long (at most 30 s) for more output or the exit. Pass each nextOffset back to read on without repeats.',
  input: z.object({
    processHandle,
    stdoutOffset: z.number().int().min(0).default(0),
    stderrOffset: z.number().int().min(0).default(0),
    waitMs: z.number().int().min(0).max(30_000).default(0),
    maxBytes: z
      .number()
      .int()
      .positive()
      .max(1024 * KiB)
      .default(64 * KiB)
      .describe('Per stream'),
  }),
  output: z.object({ ...status, stdout: stream, stderr: stream }),
  payload: ['stdout.text', 'stderr.text'],
  annotations: READ_ONLY,
  grant: GRANT.commands,
  target: (args) => ({ waitMs: args.waitMs }),
  async run(args, { adapter }, signal) {
    const { processHandle: handle, ...options } = args;
    const output = await adapter.processes.readProcessOutput(handle, { ...options, signal });
    return { structured: output, text: describeOutput(output) };
  },
});

export const processWrite = defineTool({
  name: 'process.write',
  title: 'Write to a process’s stdin',
  description:
    'Send text to the stdin of a process started with process.start; close: true closes stdin afterwards (end of input). A process that stops reading its input for a few seconds gets what it read: the answer says how much was left.',
  input: z.object({ processHandle, data: z.string().max(1024 * KiB), close: z.boolean().default(false) }),
  output: z.object({
    processHandle,
    bytesWritten: z.number(),
    stdinOpen: z.boolean(),
    charsWritten: z.number().optional().describe('Set when the process stopped reading: how many characters of data went in; send the rest again'),
    bytesLeft: z.number().optional().describe('Bytes of data not written'),
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.commands,
  target: (args) => ({ bytes: Buffer.byteLength(args.data), close: args.close }),
  async run(args, { adapter }) {
    const written = await adapter.processes.writeProcessInput(args.processHandle, args.data, args.close);
    const text =
      written.bytesLeft === undefined
        ? `Wrote ${written.bytesWritten} bytes${written.stdinOpen ? '' : '; stdin is closed'}`
        : `Wrote ${written.bytesWritten} bytes, then the process stopped reading its input for ${PROCESS_WRITE_WAIT_MS / 1000} s: ${written.bytesLeft} bytes were not written${args.close ? ' and stdin stays open' : ''}. Read its output (process.output), then call process.write again with data from character ${written.charsWritten}.`;
    return { structured: { processHandle: args.processHandle, ...written }, text };
  },
});

export const processStatus = defineTool({
  name: 'process.status',
  title: 'State of a process handle',
  description: 'Whether a process started with process.start (or moved from shell.exec) still runs, its exit code, and how much output it wrote.',
  input: z.object({ processHandle }),
  output: z.object(status),
  annotations: READ_ONLY,
  grant: GRANT.commands,
  target: () => ({}),
  async run(args, { adapter }) {
    const state = adapter.processes.processStatus(args.processHandle);
    return { structured: state, text: describeStatus(state) };
  },
});

export const processStop = defineTool({
  name: 'process.stop',
  title: 'Stop a process handle',
  description:
    'End a process started with process.start (or moved from shell.exec) with everything it started: SIGTERM to its process group, then SIGKILL after 2 s (at once with force). Its output stays readable until the handle idles out.',
  input: z.object({ processHandle, force: z.boolean().default(false) }),
  output: z.object(status),
  annotations: DESTRUCTIVE,
  grant: GRANT.commands,
  target: (args) => ({ force: args.force }),
  async run(args, { adapter }) {
    const state = await adapter.processes.stopProcess(args.processHandle, { force: args.force });
    return { structured: state, text: describeStatus(state) };
  },
});

export const processHandleTools = [processStart, processOutput, processWrite, processStatus, processStop];

function describeStatus(s: HandleStatus): string {
  const state =
    s.state === 'running'
      ? `running (pid ${s.pid})`
      : s.sandboxStopped
        ? `stopped by the sandbox: ${s.sandboxStopped}`
        : s.signal
          ? `ended by ${s.signal}${s.timedOut ? ' at its deadline' : ''}`
          : `exited with ${s.exitCode}`;
  return `${s.processHandle}: ${state}; ${s.stdoutBytes} bytes of stdout, ${s.stderrBytes} of stderr`;
}

function describeOutput(o: HandleOutput): string {
  const part = (name: string, c: StreamChunk) => {
    const lost = c.droppedBytes ? ` (${c.droppedBytes} earlier bytes were overwritten)` : '';
    if (c.binary) return `${name} ${c.offset}-${c.nextOffset}: ${c.binary.bytes} bytes of binary output${lost}`;
    return c.text ? `${name} ${c.offset}-${c.nextOffset}${lost}:\n${c.text}` : null;
  };
  return [describeStatus(o), part('stdout', o.stdout), part('stderr', o.stderr)].filter(Boolean).join('\n');
}
