/**
 * The SDK client's transport over an upstream's pipes (a PeerProcess from the adapter):
 * newline-delimited JSON-RPC, as MCP's stdio transport frames it. Bounded where an upstream
 * could hurt the server: one message is at most `maxLineBytes`, and a stream of lines that are
 * not protocol messages (a program logging to stdout, or flooding it) ends the connection.
 * stderr is kept as its last lines only, for the errors a dead upstream's tools answer. Tool
 * calls may bypass the client (`direct`, direct-calls.ts): their answers are taken out here.
 */
import { serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { PeerProcess } from '../../adapter/contract/processes.js';
import { DirectCalls } from './direct-calls.js';

/** Non-protocol stdout lines tolerated (a banner, a stray log line) before the upstream is called broken. */
const MAX_JUNK_LINES = 200;
const NEWLINE = 0x0a;
const STDERR_LINES = 20;
const STDERR_LINE_CHARS = 400;
/**
 * What may wait for an upstream to read its stdin. An upstream that sends requests (a flood of
 * pings) but never reads the answers would otherwise have them queued here without bound, each
 * with the client's bookkeeping for a request in progress; past either limit it is stopped. The
 * bytes are counted beyond one message of the largest size (a tool call that big is fine).
 */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
export const MAX_UNREAD_MESSAGES = 1000;

export class PeerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The start of a line whose end has not arrived yet. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private junk = 0;
  /** Messages waiting while a notification's handler runs (see deliver). */
  private queue: JSONRPCMessage[] | null = null;
  private closed = false;
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  /** Why the connection ended from this side (a flood, an oversized message), for the upstream's status. */
  failure: string | null = null;
  /** Bytes written since its stdin's pipe filled (write() said false), not yet taken by it. */
  private unread = 0;
  /** Sends waiting for the pipe to drain: one 'drain' listener serves them all. */
  private drainWaiters: Array<() => void> = [];
  /** Tool calls written here without the client's request machinery. */
  readonly direct = new DirectCalls((message) => this.send(message));

  constructor(
    private readonly peer: PeerProcess,
    private readonly maxLineBytes: number,
  ) {}

  async start(): Promise<void> {
    this.peer.onStdout((chunk) => this.receive(chunk));
    this.peer.onStderr((chunk) => this.keepStderr(chunk));
    this.peer.onDrain(() => this.drained());
    void this.peer.exited.then(() => this.finish());
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the upstream has exited'));
    const line = serializeMessage(message);
    const blocked = this.unread > 0;
    const taken = this.peer.write(line);
    if (taken && !blocked) return Promise.resolve();
    this.unread += Buffer.byteLength(line);
    if (this.unread > MAX_UNREAD_BYTES + this.maxLineBytes || this.drainWaiters.length >= MAX_UNREAD_MESSAGES) {
      this.fail('it sent requests faster than it read the answers');
      return Promise.reject(new Error('the upstream was stopped'));
    }
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private drained(): void {
    this.unread = 0;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async close(): Promise<void> {
    this.finish();
  }

  /** The last lines it wrote to stderr (not yet redacted). */
  lastStderr(): string[] {
    return this.stderrPartial ? [...this.stderrLines, this.stderrPartial] : [...this.stderrLines];
  }

  private receive(chunk: Uint8Array): void {
    if (this.closed) return;
    const data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
      const part = data.subarray(start, end);
      const line = this.pending.length > 0 ? Buffer.concat([...this.pending, part]) : part;
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
      if (line.length > this.maxLineBytes) return this.fail(`it sent a message over ${this.maxLineBytes} bytes`);
      this.line(line.toString('utf8'));
      if (this.closed) return;
    }
    if (start < data.length) {
      this.pending.push(data.subarray(start));
      this.pendingBytes += data.length - start;
      if (this.pendingBytes > this.maxLineBytes) this.fail(`it sent a message over ${this.maxLineBytes} bytes`);
    }
  }

  /** One line: a JSON-RPC message for the client, or junk (skipped, counted). */
  private line(text: string): void {
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (trimmed.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = undefined;
    }
    if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      if (++this.junk > MAX_JUNK_LINES) this.fail(`it wrote more than ${MAX_JUNK_LINES} lines to stdout that are not MCP messages`);
      return;
    }
    this.deliver(value as JSONRPCMessage);
  }

  /**
   * In order, and after a notification one microtask later: the SDK runs notification handlers
   * in a microtask but settles a response at once, so the last progress report of a call
   * arriving with its answer would find its handler already gone.
   */
  private deliver(message: JSONRPCMessage): void {
    if (this.queue) {
      this.queue.push(message);
      return;
    }
    if (this.direct.take(message)) return;
    const isNotification = !('id' in message);
    this.onmessage?.(message);
    if (!isNotification) return;
    this.queue = [];
    void Promise.resolve().then(() => {
      const waiting = this.queue ?? [];
      this.queue = null;
      for (const next of waiting) if (!this.closed) this.deliver(next);
    });
  }

  private keepStderr(chunk: Uint8Array): void {
    const lines = (this.stderrPartial + Buffer.from(chunk).toString('utf8')).split('\n');
    this.stderrPartial = lines.pop()!.slice(-STDERR_LINE_CHARS);
    for (const line of lines) if (line.trim()) this.stderrLines.push(line.slice(0, STDERR_LINE_CHARS));
    this.stderrLines.splice(0, Math.max(0, this.stderrLines.length - STDERR_LINES));
  }

  private fail(why: string): void {
    this.failure = why;
    this.onerror?.(new Error(why));
    void this.peer.stop(500);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.drained();
    this.direct.closed();
    this.onclose?.();
  }
}
