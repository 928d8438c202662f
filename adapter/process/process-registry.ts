/**
 * Long-running processes across calls (explicit handles, no hidden session state):
 * one registry per adapter, bounded in handles, in bytes kept per stream (a ring with absolute
 * offsets) and in idle time. Handles are unguessable and are the only way to reach a process;
 * nothing is keyed by client or session. A process's whole tree is ended on stop, when its
 * handle idles out, when the server shuts down, and at the caller's own timeoutMs for a
 * shell.exec that set one. No other deadline: a promoted command lives like a process.start one.
 * Handles hold no concurrency slot (main/policy/child-limiter.ts); their count is this registry's bound.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { adapterError } from '../contract/errors.js';
import {
  PROCESS_WRITE_WAIT_MS,
  type ExecRequest,
  type HandleLimits,
  type HandleOutput,
  type HandleStatus,
  type ProcessWrite,
  type StreamChunk,
} from '../contract/processes.js';
import { taskkillTree, terminateGroup } from './kill-tree.js';
import { coverLost, coverLostNote } from './sandbox/cover-watch.js';
import { OutputRing } from './output-ring.js';
import { describeOutput } from './output-text.js';
import { launch, type Exit, type Launched } from './run-command.js';

const KILL_GRACE_MS = 2000;
/** The longest a read waits for new output. */
export const MAX_WAIT_MS = 30_000;

interface Entry {
  handle: string;
  launched: Launched;
  stdout: OutputRing;
  stderr: OutputRing;
  exit: Exit | null;
  timedOut: boolean;
  sandboxStopped?: string;
  startedAt: Date;
  stdinOpen: boolean;
  limits: HandleLimits;
  idleTimer?: NodeJS.Timeout;
  deadlineTimer?: NodeJS.Timeout;
  /** Wakes readers waiting for output or the exit. */
  wake: Set<() => void>;
  /** The write in progress: the next one starts after it. */
  writing: Promise<unknown>;
}

export class ProcessRegistry {
  private readonly entries = new Map<string, Entry>();
  /** process.start calls between their room check and their entry: they count against the bound. */
  private starting = 0;

  constructor(private readonly platform: NodeJS.Platform) {}

  get size(): number {
    return this.entries.size;
  }

  async start(request: ExecRequest & { handles: HandleLimits }): Promise<HandleStatus> {
    this.makeRoom(request.handles, 'process.start');
    this.starting++;
    let launched: Launched;
    try {
      launched = await launch(request, this.platform, 'pipe');
    } finally {
      this.starting--;
    }
    const entry = this.track(launched, request.handles, { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) }, true);
    return this.describe(entry);
  }

  /**
   * Takes over a command shell.exec started (its output so far included), or returns null
   * when no handle is free: then the caller keeps waiting for it as before.
   */
  adopt(launched: Launched, request: ExecRequest, soFar: { stdout: Buffer; stderr: Buffer }): string | null {
    const limits = request.handles;
    if (!limits || this.liveCount() + this.starting >= limits.maxHandles) return null;
    this.makeRoom(limits, 'shell.exec');
    const remaining = request.keepTimeout ? Math.max(1, request.timeoutMs - Math.round(performance.now() - launched.started)) : undefined;
    return this.track(launched, limits, soFar, false, remaining).handle;
  }

  async read(
    handle: string,
    options: { stdoutOffset: number; stderrOffset: number; waitMs: number; maxBytes: number; signal?: AbortSignal },
  ): Promise<HandleOutput> {
    const entry = this.get(handle, 'process.output');
    const hasNew = () => entry.stdout.end > options.stdoutOffset || entry.stderr.end > options.stderrOffset || entry.exit !== null;
    if (!hasNew() && options.waitMs > 0) await this.waitFor(entry, hasNew, Math.min(options.waitMs, MAX_WAIT_MS), options.signal);
    this.touch(entry);
    const final = entry.exit !== null;
    return {
      ...this.describe(entry),
      stdout: chunk(entry.stdout, options.stdoutOffset, options.maxBytes, final),
      stderr: chunk(entry.stderr, options.stderrOffset, options.maxBytes, final),
    };
  }

  /**
   * Writes in chunks, each waiting for the pipe to drain, for at most `waitMs` in all: a process
   * that does not read its input makes the call return with what was written (the last chunk may
   * still be queued, at most WRITE_CHUNK bytes), never hang it or queue megabytes in the server.
   * Writes to one handle run one at a time, so their text stays in order.
   */
  write(handle: string, data: string, close: boolean, waitMs = PROCESS_WRITE_WAIT_MS): Promise<ProcessWrite> {
    const entry = this.get(handle, 'process.write');
    const run = async (): Promise<ProcessWrite> => {
      const stdin = entry.launched.child.stdin;
      if (!entry.stdinOpen || !stdin || entry.exit) {
        throw adapterError('PRECONDITION_FAILED', 'process.write', `${handle}'s input is closed${entry.exit ? ' (the process has exited)' : ''}`);
      }
      this.touch(entry);
      const deadline = performance.now() + waitMs;
      let chars = 0;
      let bytes = 0;
      while (chars < data.length) {
        const piece = utf8Prefix(data, chars, WRITE_CHUNK);
        const chunk = Buffer.from(piece, 'utf8');
        const flushed = stdin.write(chunk);
        chars += piece.length;
        bytes += chunk.length;
        if (!flushed && !(await drained(stdin, deadline - performance.now()))) break;
      }
      const complete = chars === data.length;
      if (close && complete) {
        stdin.end();
        entry.stdinOpen = false;
      }
      return { bytesWritten: bytes, stdinOpen: entry.stdinOpen, ...(complete ? {} : { charsWritten: chars, bytesLeft: Buffer.byteLength(data) - bytes }) };
    };
    const next = entry.writing.then(run, run);
    entry.writing = next.catch(() => undefined);
    return next;
  }

  async stop(handle: string, options: { force: boolean }): Promise<HandleStatus> {
    const entry = this.get(handle, 'process.stop');
    this.touch(entry);
    if (!entry.exit) await this.endTree(entry, options.force ? 0 : KILL_GRACE_MS);
    return this.describe(entry);
  }

  status(handle: string): HandleStatus {
    const entry = this.get(handle, 'process.status');
    this.touch(entry);
    return this.describe(entry);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => this.forget(entry, 0)));
  }

  private track(launched: Launched, limits: HandleLimits, soFar: { stdout: Buffer; stderr: Buffer }, stdinOpen: boolean, deadlineMs?: number): Entry {
    const entry: Entry = {
      handle: `proc_${randomBytes(18).toString('base64url')}`,
      launched,
      writing: Promise.resolve(),
      stdout: new OutputRing(limits.ringBytes),
      stderr: new OutputRing(limits.ringBytes),
      exit: null,
      timedOut: false,
      startedAt: new Date(Date.now() - (performance.now() - launched.started)),
      stdinOpen,
      limits,
      wake: new Set(),
    };
    entry.stdout.push(soFar.stdout);
    entry.stderr.push(soFar.stderr);
    const { child } = launched;
    const woken = () => entry.wake.forEach((wake) => wake());
    child.stdout.on('data', (data: Buffer) => {
      entry.stdout.push(data);
      woken();
    });
    child.stderr.on('data', (data: Buffer) => {
      entry.stderr.push(data);
      woken();
    });
    void launched.exited.then(async (exit) => {
      // The main process is gone: end what is left of its group, then settle.
      if (this.platform !== 'win32') await terminateGroup(launched.pid, KILL_GRACE_MS, this.platform).catch(() => false);
      const lost = launched.coverLost();
      if (lost !== null) {
        entry.stderr.push(Buffer.from(coverLostNote(lost)));
        entry.sandboxStopped = coverLost(lost);
      }
      entry.exit = exit;
      entry.stdinOpen = false;
      clearTimeout(entry.deadlineTimer);
      woken();
    });
    if (deadlineMs !== undefined) {
      entry.deadlineTimer = setTimeout(() => {
        entry.timedOut = true;
        void this.endTree(entry, KILL_GRACE_MS);
      }, deadlineMs);
      entry.deadlineTimer.unref();
    }
    this.entries.set(entry.handle, entry);
    this.touch(entry);
    return entry;
  }

  /** Forgets exited handles, oldest first, to make room; refuses when every handle is a running process. */
  private makeRoom(limits: HandleLimits, operation: string): void {
    const used = () => this.entries.size + this.starting;
    if (used() < limits.maxHandles) return;
    const exited = [...this.entries.values()].filter((e) => e.exit !== null);
    for (const entry of exited.slice(0, used() - limits.maxHandles + 1)) void this.forget(entry, 0);
    if (used() >= limits.maxHandles) {
      throw adapterError(
        'OUTPUT_LIMIT',
        operation,
        `${used()} processes are running under handles, the most this server keeps (shell.maxProcesses is ${limits.maxHandles}); stop one with process.stop first`,
      );
    }
  }

  private liveCount(): number {
    return [...this.entries.values()].filter((e) => e.exit === null).length;
  }

  private get(handle: string, operation: string): Entry {
    const entry = this.entries.get(handle);
    if (!entry)
      throw adapterError(
        'NOT_FOUND',
        operation,
        `no process has the handle ${handle.slice(0, 48)} (it was stopped and forgotten, idled out, or never existed)`,
      );
    return entry;
  }

  /** Resets the idle clock: a handle nobody asks about for limits.idleMs is ended and forgotten. */
  private touch(entry: Entry): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => void this.forget(entry, KILL_GRACE_MS), entry.limits.idleMs);
    entry.idleTimer.unref();
  }

  private async forget(entry: Entry, graceMs: number): Promise<void> {
    clearTimeout(entry.idleTimer);
    clearTimeout(entry.deadlineTimer);
    this.entries.delete(entry.handle);
    if (!entry.exit) await this.endTree(entry, graceMs);
    // Nobody reads a forgotten handle's output. A grandchild that left the group (setsid) may
    // still hold the pipes, which would keep them, and at shutdown this process, alive.
    const { child } = entry.launched;
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
  }

  private async endTree(entry: Entry, graceMs: number): Promise<void> {
    const { child, pid, exited } = entry.launched;
    if (this.platform !== 'win32') await terminateGroup(pid, graceMs, this.platform);
    else if (!(await taskkillTree(pid))) child.kill('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    // The exit handler records the exit; wait for it so the answer says the process is gone.
    for (let i = 0; i < 20 && !entry.exit; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private waitFor(entry: Entry, ready: () => boolean, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        entry.wake.delete(check);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const check = () => {
        if (ready()) done();
      };
      const timer = setTimeout(done, ms);
      entry.wake.add(check);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private describe(entry: Entry): HandleStatus {
    const exit = entry.exit;
    return {
      processHandle: entry.handle,
      pid: entry.launched.pid,
      state: exit ? 'exited' : 'running',
      exitCode: exit?.code ?? null,
      signal: exit?.signal ?? null,
      timedOut: entry.timedOut,
      ...(entry.sandboxStopped ? { sandboxStopped: entry.sandboxStopped } : {}),
      startedAt: entry.startedAt.toISOString(),
      durationMs: Math.round(performance.now() - entry.launched.started),
      stdoutBytes: entry.stdout.end,
      stderrBytes: entry.stderr.end,
      stdinOpen: entry.stdinOpen,
    };
  }
}

function chunk(ring: OutputRing, from: number, maxBytes: number, final: boolean): StreamChunk {
  const { data, offset, next, dropped } = ring.read(from, maxBytes, final);
  const described = describeOutput(data);
  return {
    text: described.text,
    ...(described.binary ? { binary: { ...described.binary, base64: data.toString('base64') } } : {}),
    offset,
    nextOffset: next,
    droppedBytes: dropped,
  };
}

/** Written at a time: at most this much stays queued in the server when the process stops reading. */
const WRITE_CHUNK = 64 * 1024;

/** Up to maxBytes of UTF-8 from text[from..] (a UTF-16 unit is at most 3 bytes), never splitting a surrogate pair. */
function utf8Prefix(text: string, from: number, maxBytes: number): string {
  let end = Math.min(text.length, from + Math.floor(maxBytes / 3));
  const code = text.charCodeAt(end - 1);
  if (end < text.length && end - 1 > from && code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(from, end);
}

/** Resolves true when the stream drained, false when it did not within `ms` (or closed). */
function drained(stream: Writable, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    stream.once('drain', onDrain);
    stream.once('close', onClose);
    stream.once('error', onClose);
  });
}
