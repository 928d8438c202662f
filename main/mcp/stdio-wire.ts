/**
 * The stdio wire under the SDK's serveStdio: newline-delimited JSON-RPC on stdin and stdout,
 * as the SDK's own StdioServerTransport does it, with one shortcut. Once the connection has
 * negotiated a 2025-era revision (a legacy `initialize`, how most hosts connect), a plain
 * `tools/call` of a granted tool is answered here, from the same prepared handler and the same
 * input schema, without the SDK's per-message schema parsing, era routing and request
 * bookkeeping: on the small calls hosts make most (a short read, a pointer move) that
 * machinery cost more CPU than the tool itself. Everything else, and every call the
 * shortcut is not sure of (arguments that fail validation, an envelope, an unusual shape),
 * goes to the SDK untouched, so the SDK's answers and errors stay the contract.
 */
import type { Readable, Writable } from 'node:stream';
import {
  parseJSONRPCMessage,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type CallToolResult,
  type JSONRPCMessage,
  type Notification,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/server';
import { isJsonObject, type JsonObject } from './json-object.js';

/** A granted tool as the shortcut runs it: the schemas it was registered with and its handler. */
export interface DirectTool {
  input: StandardSchemaV1;
  /** Absent for a tool without an output schema (a gateway tool whose upstream declares none). */
  output?: StandardSchemaV1;
  handler(
    args: Record<string, unknown>,
    ctx: {
      mcpReq: { id: string | number; signal: AbortSignal; _meta?: { progressToken?: string | number }; notify?(notification: Notification): Promise<void> };
      caller?: { clientName?: string };
    },
  ): Promise<CallToolResult>;
}

/** By the name the client calls them (server.toolNames). */
export type DirectTools = ReadonlyMap<string, DirectTool>;

/** The first revision with per-request envelopes; every one before it is answered the 2025 way. */
const FIRST_MODERN_REVISION = '2026-07-28';
/** `_meta` keys of the per-request envelope: a call that carries one is the SDK's to judge. */
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';
const PLAIN_CALL_MEMBERS = new Set(['name', 'arguments', '_meta']);
const CANCEL_MEMBERS = new Set(['requestId', 'reason', '_meta']);
/**
 * Calls answered here at once; more go to the SDK, which starts them one message at a time.
 * Without a bound, one chunk of thousands of calls would start them all together (and, say,
 * queue them all on one path's lock), costing far more than the same calls through the SDK.
 */
const MAX_DIRECT_CALLS = 32;
const NEWLINE = 0x0a;

type Call = { id: string | number; tool: DirectTool; name: string; args: JsonObject; progressToken?: string | number };

export class StdioWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private buffered: Buffer | undefined;
  private started = false;
  private closed = false;
  private legacy = false;
  /** `clientInfo.name` from the connection's `initialize`: who calls decides an answer's shape. */
  private clientName: string | undefined;
  private readonly running = new Map<string | number, AbortController>();

  constructor(
    private readonly tools: DirectTools,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioWire already started');
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onEnd);
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onWriteError);
  }

  /** The SDK tells the wire the revision a legacy `initialize` settled on. */
  setProtocolVersion(version: string): void {
    this.legacy = version < FIRST_MODERN_REVISION;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffered = undefined;
    // Like the SDK's: calls still running when the client hangs up are aborted, not answered.
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('StdioWire is closed'));
    return this.write(serializeMessage(message));
  }

  private readonly onData = (chunk: Buffer) => {
    if ((this.buffered?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.onerror?.(new Error(`stdin buffer exceeded maximum size of ${this.maxBufferSize} bytes`));
      void this.close();
      return;
    }
    let buffer = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    let end: number;
    while (!this.closed && (end = buffer.indexOf(NEWLINE)) !== -1) {
      const line = buffer.toString('utf8', 0, end);
      buffer = buffer.subarray(end + 1);
      this.receive(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    this.buffered = buffer.length > 0 && !this.closed ? buffer : undefined;
  };

  private readonly onError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();
  private readonly onWriteError = (error: Error) => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // the SDK's reader skips a line that is not JSON, too
    }
    this.noteClient(value);
    const call = this.directCall(value);
    if (call) {
      void this.answer(call); // registered before this returns, so a cancel on the next line finds it
      return;
    }
    if (this.cancel(value)) return;
    this.deliver(value);
  }

  private noteClient(value: unknown): void {
    if (!isJsonObject(value) || value.method !== 'initialize' || !isJsonObject(value.params) || !isJsonObject(value.params.clientInfo)) return;
    const { name } = value.params.clientInfo;
    if (typeof name === 'string') this.clientName = name;
  }

  private deliver(value: unknown): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(asError(error));
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * A call the shortcut answers, its arguments already validated: anything it is not sure of is
   * the SDK's, in order with the lines after it. That includes arguments the input schema
   * refuses (the SDK words the refusal) and every shape the SDK's request schema would refuse.
   */
  private directCall(value: unknown): Call | undefined {
    if (!this.legacy || !isJsonObject(value) || value.method !== 'tools/call' || value.jsonrpc !== '2.0') return undefined;
    const { id, params } = value;
    if (Object.keys(value).length !== 4 || !isRequestId(id) || this.running.has(id) || !isJsonObject(params)) return undefined;
    if (this.running.size >= MAX_DIRECT_CALLS) return undefined;
    // Only the members a plain call has: a task request, say, is the SDK's to judge.
    if (!Object.keys(params).every((key) => PLAIN_CALL_MEMBERS.has(key))) return undefined;
    const { name, arguments: args, _meta: meta } = params;
    const tool = typeof name === 'string' ? this.tools.get(name) : undefined;
    if (!tool || (args !== undefined && !isJsonObject(args)) || !isPlainMeta(meta)) return undefined;
    const input = tool.input['~standard'].validate(args ?? {});
    if (input instanceof Promise || input.issues?.length) return undefined;
    const progressToken = (meta as { progressToken?: string | number } | undefined)?.progressToken;
    return { id, tool, name: name as string, args: (input as { value: JsonObject }).value, ...(progressToken === undefined ? {} : { progressToken }) };
  }

  private async answer({ id, tool, name, args, progressToken }: Call): Promise<void> {
    const controller = new AbortController();
    this.running.set(id, controller);
    let result: CallToolResult;
    try {
      // Progress a tool reports (a gateway tool relays its upstream's) goes out as the SDK would send it.
      const notify = (notification: Notification) => this.send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage);
      const meta = progressToken === undefined ? {} : { _meta: { progressToken } };
      result = await tool.handler(args, { mcpReq: { id, signal: controller.signal, ...meta, notify }, caller: { clientName: this.clientName } });
      if (!result.isError && tool.output) result = await checkedOutput(tool.output, name, result);
    } catch (error) {
      result = toolError(asError(error).message);
    } finally {
      if (this.running.get(id) === controller) this.running.delete(id);
    }
    // A cancelled call is not answered (the client stopped waiting), as the SDK does it.
    if (controller.signal.aborted || this.closed) return;
    await this.send({ jsonrpc: '2.0', id, result }).catch((error: unknown) => this.onerror?.(asError(error)));
  }

  /** True when `value` is a well-formed cancellation of a call answered here; any other is the SDK's. */
  private cancel(value: unknown): boolean {
    if (!isJsonObject(value) || value.method !== 'notifications/cancelled' || value.jsonrpc !== '2.0' || Object.keys(value).length !== 3) return false;
    const { params } = value;
    if (!isJsonObject(params) || !Object.keys(params).every((key) => CANCEL_MEMBERS.has(key)) || !isPlainMeta(params._meta)) return false;
    const { requestId: id, reason } = params;
    if (!isRequestId(id) || (reason !== undefined && typeof reason !== 'string')) return false;
    const controller = this.running.get(id);
    if (!controller) return false;
    this.running.delete(id);
    controller.abort(reason);
    return true;
  }

  /** Resolves once the OS took the bytes or the stream drained, like the SDK's transport. */
  private write(json: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.stdout.write(json)) {
        resolve();
        return;
      }
      const done = (error?: Error) => {
        this.stdout.off('drain', done);
        this.stdout.off('error', done);
        if (error) reject(error);
        else resolve();
      };
      this.stdout.once('drain', done);
      this.stdout.once('error', done);
    });
  }
}

/** What the SDK answers when a tool's structured result does not match its output schema. */
async function checkedOutput(schema: StandardSchemaV1, name: string, result: CallToolResult): Promise<CallToolResult> {
  if (result.structuredContent === undefined) {
    return toolError(`Output validation error: Tool ${name} has an output schema but no structured content was provided`);
  }
  const output = await schema['~standard'].validate(result.structuredContent);
  if (!output.issues?.length) return result;
  const issues = output.issues.map(formatIssue).join(', ');
  return toolError(`Output validation error: Invalid structured content for tool ${name}: ${issues}`);
}

/** As the SDK words an issue: `path.to.field: message`. */
function formatIssue(issue: StandardSchemaV1.Issue): string {
  if (!issue.path?.length) return issue.message;
  return `${issue.path.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.')}: ${issue.message}`;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** What the SDK's schema takes as an id (or a progress token): text or a safe integer. */
function isRequestId(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** No `_meta`, or one without an envelope and with a well-formed progress token if any. */
function isPlainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isJsonObject(meta) || Object.keys(meta).some((key) => key.startsWith(ENVELOPE_PREFIX))) return false;
  return meta.progressToken === undefined || isRequestId(meta.progressToken);
}
