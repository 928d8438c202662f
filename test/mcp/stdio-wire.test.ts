/**
 * The stdio wire's shortcut against the SDK's own stdio transport, over real streams and the
 * real server factory: what it answers itself must be what the SDK answers, and everything it
 * is not sure of must reach the SDK.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import * as z from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { configSchema } from '../../main/config/schema.js';
import { createLogger } from '../../main/log.js';
import { createServerFactory } from '../../main/mcp/server.js';
import { StdioWire } from '../../main/mcp/stdio-wire.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../main/mcp/tool.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { modernRequest } from '../helpers/raw-rpc.js';
import { GRANT } from '../../main/policy/grants.js';

type Message = { id?: string | number; method?: string; result?: unknown; error?: unknown };

/** One stdio connection over in-memory pipes: what the SDK was handed, and the answers by id. */
class Connection {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  /** Methods of the messages the wire handed to the SDK. */
  readonly delivered: string[] = [];
  readonly answers = new Map<string | number, Message>();
  private readonly waiters = new Map<string | number, (message: Message) => void>();
  private pending = '';
  private readonly handle: { close(): Promise<void> };

  constructor(factory: ReturnType<typeof createServerFactory>, wire: (stdin: PassThrough, stdout: PassThrough) => Transport) {
    const transport = wire(this.stdin, this.stdout);
    watchDeliveries(transport, this.delivered);
    this.stdout.setEncoding('utf8');
    this.stdout.on('data', (chunk: string) => {
      this.pending += chunk;
      let end: number;
      while ((end = this.pending.indexOf('\n')) !== -1) {
        const message = JSON.parse(this.pending.slice(0, end)) as Message;
        this.pending = this.pending.slice(end + 1);
        if (message.id === undefined) continue;
        this.answers.set(message.id, message);
        this.waiters.get(message.id)?.(message);
      }
    });
    this.handle = serveStdio(factory, { transport });
  }

  write(text: string): void {
    this.stdin.write(text);
  }

  send(message: Record<string, unknown>): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  }

  answer(id: string | number): Promise<Message> {
    const known = this.answers.get(id);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => this.waiters.set(id, resolve));
  }

  async request(id: string | number, method: string, params: Record<string, unknown> = {}): Promise<Message> {
    this.send({ id, method, params });
    return this.answer(id);
  }

  async initialize(): Promise<void> {
    await this.request('init', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire-test', version: '1.0.0' } });
    this.send({ method: 'notifications/initialized' });
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** Records the method of every message the transport hands to its `onmessage` (the SDK). */
function watchDeliveries(transport: Transport, delivered: string[]): void {
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    get: () =>
      handler &&
      ((message: JSONRPCMessage, extra?: unknown) => {
        delivered.push('method' in message ? message.method : 'response');
        (handler as (m: JSONRPCMessage, e?: unknown) => void)(message, extra);
      }),
    set: (value: Transport['onmessage']) => (handler = value),
  });
}

const ours = (factory: ReturnType<typeof createServerFactory>) => new Connection(factory, (stdin, stdout) => new StdioWire(factory.directTools, stdin, stdout));
const sdks = (factory: ReturnType<typeof createServerFactory>) => new Connection(factory, (stdin, stdout) => new StdioServerTransport(stdin, stdout));

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

let dir: string;
let root: string;
const open: Connection[] = [];

beforeEach(() => {
  dir = makeTempDir('chatgpt-mcp-wire-');
  root = path.join(dir, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'a.txt'), 'hello wire\n');
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'not yours\n');
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  removeDir(dir);
});

function factoryFor(tools?: readonly ToolDefinition[]) {
  const config = configSchema.parse({ server: { toolNames: 'dotted', logLevel: 'silent' }, filesystem: { read: true, roots: [root] } });
  return createServerFactory({ config, adapter: createLocalAdapter(), logger: createLogger('silent'), ...(tools ? { tools } : {}) });
}

function connect(make: typeof ours, tools?: readonly ToolDefinition[]): Connection {
  const connection = make(factoryFor(tools));
  open.push(connection);
  return connection;
}

describe('the stdio wire', () => {
  it('answers calls of granted tools itself once a legacy initialize settled the revision, exactly as the SDK does', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['fs.read', { path: path.join(root, 'a.txt') }],
      ['fs.read', { path: 'a.txt', maxBytes: 5 }],
      ['fs.read', { path: path.join(dir, 'outside.txt') }], // a refusal, answered as a tool error
      ['fs.list', { path: root }],
      ['fs.read', { path: 'a.txt', max_bytes: 5 }], // fails validation: the SDK words it
      ['fs.write', { path: 'b.txt', content: 'x' }], // not granted: the SDK's not-granted answer
      ['no.such.tool', {}],
    ];
    const answers = [];
    for (const make of [ours, sdks]) {
      const connection = connect(make);
      await connection.initialize();
      const results = [];
      for (const [i, [name, args]] of calls.entries())
        results.push((await connection.request(i + 1, 'tools/call', call(name, args))).result ?? (await connection.answer(i + 1)).error);
      answers.push({ results, delivered: connection.delivered });
    }
    const [wire, sdk] = answers;
    expect(wire!.results).toEqual(sdk!.results);
    expect(JSON.stringify(wire!.results[0])).toContain('hello wire');
    expect(JSON.stringify(wire!.results[2])).toContain('PATH_NOT_ALLOWED');
    expect(JSON.stringify(wire!.results[4])).toContain('unknown argument');
    // The SDK saw only what the shortcut was not sure of.
    expect(wire!.delivered).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/call', 'tools/call']);
    expect(sdk!.delivered.filter((m) => m === 'tools/call')).toHaveLength(calls.length);
  });

  it('leaves a call before initialize, one with a 2026 envelope, a task request and an unusual message to the SDK', async () => {
    const early = connect(ours);
    const before = await early.request(1, 'tools/call', call('fs.read', { path: 'a.txt' }));
    expect(JSON.stringify(before.result)).toContain('hello wire');

    const modern = connect(ours);
    modern.write(modernRequest(1, 'tools/call', call('fs.read', { path: 'a.txt' })) + '\n');
    expect(JSON.stringify((await modern.answer(1)).result)).toContain('hello wire');

    const odd = connect(ours);
    await odd.initialize();
    // A member JSON-RPC does not have: the SDK refuses the message (it reports it, and answers nothing).
    odd.send({ id: 2, method: 'tools/call', params: call('fs.read', { path: 'a.txt' }), extra: true });
    odd.send({
      id: 3,
      method: 'tools/call',
      params: { ...call('fs.read', { path: 'a.txt' }), _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    odd.send({ id: 4, method: 'tools/call', params: { ...call('fs.read', { path: 'a.txt' }), _meta: { progressToken: 7 } } });
    odd.send({ id: 6, method: 'tools/call', params: { ...call('fs.read', { path: 'a.txt' }), task: { ttl: 1000 } } });
    await Promise.all([odd.answer(3), odd.answer(4), odd.answer(6), odd.request(5, 'ping')]);
    expect(odd.answers.has(2)).toBe(false);

    expect(early.delivered).toEqual(['tools/call']);
    expect(modern.delivered).toEqual(['tools/call']);
    // A progress token alone is plain 2025 traffic: answered by the shortcut.
    expect(odd.delivered).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/call', 'ping']);
  });

  it('aborts a call that is cancelled and does not answer it', async () => {
    const { seen, connection } = await waitingConnection();
    connection.send({ id: 9, method: 'tools/call', params: call('test.wait', {}) });
    await expect.poll(() => seen).toEqual(['started']);
    connection.send({ method: 'notifications/cancelled', params: { requestId: 9, reason: 'changed my mind' } });
    await expect.poll(() => seen).toEqual(['started', 'aborted']);
    await connection.request(10, 'ping');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connection.answers.has(9)).toBe(false);
    expect(connection.delivered).not.toContain('notifications/cancelled');
  });

  it('hands a refused call to the SDK before the next line, so a cancel that follows reaches it', async () => {
    const { seen, connection } = await waitingConnection();
    // The shortcut refuses an own __proto__ argument; the SDK's request schema drops it and runs the call.
    const refused = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test.wait","arguments":{"__proto__":{}}}}';
    const cancel = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    connection.write(`${refused}\n${cancel}\n`);
    await expect.poll(() => seen).toEqual(['started', 'aborted']);
    await connection.request(8, 'ping');
    expect(connection.answers.has(7)).toBe(false);
    expect(connection.delivered).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'notifications/cancelled', 'ping']);
  });

  it('runs nothing the SDK would throw away: an id beyond safe integers, a malformed progress token', async () => {
    const { seen, connection } = await waitingConnection();
    connection.write('{"jsonrpc":"2.0","id":1e21,"method":"tools/call","params":{"name":"test.wait","arguments":{}}}\n');
    connection.send({ id: 2, method: 'tools/call', params: { ...call('test.wait', {}), _meta: { progressToken: {} } } });
    connection.send({ id: 3, method: 'tools/call', params: { ...call('test.wait', {}), _meta: { progressToken: 1.5 } } });
    await connection.request(4, 'ping');
    expect(seen).toEqual([]);
    expect([...connection.answers.keys()]).toEqual(['init', 4]);
  });

  it('obeys only a well-formed cancellation of its own calls', async () => {
    const { seen, connection } = await waitingConnection();
    connection.send({ id: 1, method: 'tools/call', params: call('test.wait', {}) });
    await expect.poll(() => seen).toEqual(['started']);
    connection.write(JSON.stringify({ method: 'notifications/cancelled', params: { requestId: 1 } }) + '\n'); // no jsonrpc
    connection.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 42 } });
    connection.send({ id: 99, method: 'notifications/cancelled', params: { requestId: 1 } }); // a request, not a notification
    await connection.request(2, 'ping');
    expect(seen).toEqual(['started']);
    connection.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'now' } });
    await expect.poll(() => seen).toEqual(['started', 'aborted']);
    expect(connection.answers.has(1)).toBe(false);
  });

  it('starts at most 32 calls at once itself and leaves the rest of a flood to the SDK', async () => {
    const { seen, connection } = await waitingConnection();
    const flood = Array.from({ length: 40 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: call('test.wait', {}) }));
    connection.write(flood.join('\n') + '\n');
    await expect.poll(() => seen.length).toBe(40);
    expect(connection.delivered.filter((m) => m === 'tools/call')).toHaveLength(8);
  });

  it('aborts the calls still running when the client closes stdin, answering none', async () => {
    const { seen, connection } = await waitingConnection();
    connection.send({ id: 5, method: 'tools/call', params: call('test.wait', {}) });
    await expect.poll(() => seen).toEqual(['started']);
    connection.stdin.end();
    await expect.poll(() => seen).toEqual(['started', 'aborted']);
    expect(connection.answers.has(5)).toBe(false);
  });

  it('refuses structured content that breaks the output schema in the words the SDK uses', async () => {
    const broken = defineTool({
      name: 'test.broken',
      title: 'broken',
      description: 'returns the wrong shape',
      input: z.object({}),
      output: z.object({ ok: z.boolean(), nested: z.object({ count: z.number() }) }),
      annotations: READ_ONLY,
      grant: GRANT.always,
      run: async () => ({ structured: { ok: 'yes', nested: { count: 'many' } } as never, text: 'oops' }),
    }) as unknown as ToolDefinition;
    const results = [];
    for (const make of [ours, sdks]) {
      const connection = connect(make, [broken]);
      await connection.initialize();
      results.push((await connection.request(1, 'tools/call', call('test.broken', {}))).result);
      if (make === ours) expect(connection.delivered).not.toContain('tools/call');
    }
    expect(results[0]).toEqual(results[1]);
    expect(JSON.stringify(results[0])).toContain('nested.count');
  });

  it('reads lines split across chunks and ending in CRLF, and skips a line that is not JSON', async () => {
    const connection = connect(ours);
    await connection.initialize();
    const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call('fs.read', { path: 'a.txt' }) });
    connection.write('this is not json\n');
    connection.write(line.slice(0, 10));
    connection.write(line.slice(10) + '\r\n' + JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }).slice(0, 5));
    connection.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }).slice(5) + '\n');
    expect(JSON.stringify((await connection.answer(1)).result)).toContain('hello wire');
    expect((await connection.answer(2)).result).toEqual({});
  });

  it('closes the connection when a line outgrows its buffer', async () => {
    const stdin = new PassThrough();
    const wire = new StdioWire(new Map(), stdin, new PassThrough(), 64);
    const errors: string[] = [];
    let closed = false;
    wire.onerror = (error) => void errors.push(error.message);
    wire.onclose = () => void (closed = true);
    await wire.start();
    stdin.write('x'.repeat(40));
    stdin.write('x'.repeat(40));
    await expect.poll(() => closed).toBe(true);
    expect(errors).toEqual(['stdin buffer exceeded maximum size of 64 bytes']);
    await expect(wire.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toThrow('closed');
  });
});

/** An initialized connection of ours serving only the waiting tool, and what that tool saw. */
async function waitingConnection(): Promise<{ seen: string[]; connection: Connection }> {
  const seen: string[] = [];
  const connection = connect(ours, [waitingTool(seen)]);
  await connection.initialize();
  return { seen, connection };
}

/** A tool that runs until its call is aborted, telling `seen` when it starts and when it is aborted. */
function waitingTool(seen: string[]): ToolDefinition {
  return defineTool({
    name: 'test.wait',
    title: 'wait',
    description: 'waits for its abort',
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    annotations: READ_ONLY,
    grant: GRANT.always,
    run: (_args, _deps, signal) =>
      new Promise((resolve) => {
        seen.push('started');
        const aborted = () => {
          seen.push('aborted');
          resolve({ structured: { ok: false }, text: 'aborted' });
        };
        if (signal.aborted)
          aborted(); // cancelled before the handler ran
        else signal.addEventListener('abort', aborted);
      }),
  }) as unknown as ToolDefinition;
}
