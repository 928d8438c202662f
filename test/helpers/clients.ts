/**
 * Real MCP clients: the v2 client pinned to the modern 2026-07-28 protocol, and the widely
 * deployed v1 client (legacy `initialize` handshake), each over HTTP or stdio.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './servers.js';

export const MODERN = '2026-07-28';

/** The subset of client behaviour the tests use, shared by v1 and v2 clients. */
export interface TestClient {
  kind: 'modern' | 'legacy';
  listTools(): Promise<{ tools: Array<{ name: string; annotations?: Record<string, unknown>; outputSchema?: unknown }> }>;
  /** With a signal: aborting it cancels the request, as a host does when the user stops. */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options?: { signal?: AbortSignal }): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function headersFor(token?: string): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

export async function connectModernHttp(url: string, token?: string): Promise<TestClient> {
  const client = new Client({ name: 'test-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: headersFor(token) } }));
  return wrap('modern', client);
}

export async function connectLegacyHttp(url: string, token?: string): Promise<TestClient> {
  const client = new V1Client({ name: 'test-legacy', version: '1.0.0' });
  await client.connect(new V1HttpTransport(new URL(url), { requestInit: { headers: headersFor(token) } }));
  return wrap('legacy', client);
}

export async function connectModernStdio(args: string[], env: Record<string, string>): Promise<TestClient> {
  const client = new Client({ name: 'test-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--stdio', ...args], env, stderr: 'pipe' }));
  return wrap('modern', client);
}

export async function connectLegacyStdio(args: string[], env: Record<string, string>): Promise<TestClient> {
  const client = new V1Client({ name: 'test-legacy', version: '1.0.0' });
  await client.connect(new V1StdioTransport({ command: process.execPath, args: [CLI, 'serve', '--stdio', ...args], env, stderr: 'pipe' }));
  return wrap('legacy', client);
}

type Params = { name: string; arguments?: Record<string, unknown> };
type CallOptions = { signal?: AbortSignal };

interface AnyClient {
  listTools(): Promise<unknown>;
  close(): Promise<void>;
}

function wrap(kind: TestClient['kind'], client: Client | V1Client): TestClient {
  // v2 takes (params, options); v1 (params, resultSchema, options).
  const call =
    client instanceof V1Client
      ? (params: Params, options?: CallOptions) => client.callTool(params, undefined, options)
      : (params: Params, options?: CallOptions) => client.callTool(params, options);
  const any: AnyClient = client;
  return {
    kind,
    listTools: () => any.listTools() as ReturnType<TestClient['listTools']>,
    callTool: (params, options) => call(params, options) as Promise<CallResult>,
    close: () => any.close(),
  };
}

/** The text of a tool result's last text block. */
export function textOf(result: CallResult): string {
  return [...result.content].reverse().find((c) => c.type === 'text')?.text ?? '';
}
