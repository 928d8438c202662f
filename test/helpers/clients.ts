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
  /** Tools under the contract's names (fs.read), whichever separator the server uses. */
  listTools(): Promise<{ tools: Array<{ name: string; annotations?: Record<string, unknown>; outputSchema?: unknown }> }>;
  /** Tools exactly as the server lists them. */
  rawListTools(): Promise<{ tools: Array<{ name: string; annotations?: Record<string, unknown>; outputSchema?: unknown }> }>;
  /** With a signal: aborting it cancels the request, as a host does when the user stops. */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options?: { signal?: AbortSignal }): Promise<CallResult>;
  /** The server's `instructions` from initialize. */
  instructions(): string | undefined;
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

/** A modern client of a server started by any command line (a bundle's, as its host would start it). */
export async function connectCommand(command: string, args: string[], env: Record<string, string>): Promise<TestClient> {
  const client = new Client({ name: 'test-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'pipe' }));
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

/**
 * Tests speak the contract's names (fs.read). A server exposing them with underscores (the
 * default, fs_read) is spoken to in its own names: calls are sent under the exposed name and
 * listings come back under the contract's. `rawListTools` shows what the server really lists.
 */
function wrap(kind: TestClient['kind'], client: Client | V1Client): TestClient {
  // v2 takes (params, options); v1 (params, resultSchema, options).
  const call =
    client instanceof V1Client
      ? (params: Params, options?: CallOptions) => client.callTool(params, undefined, options)
      : (params: Params, options?: CallOptions) => client.callTool(params, options);
  const any: AnyClient = client;
  let exposed: Promise<Set<string>> | undefined;
  const raw = () => any.listTools() as ReturnType<TestClient['listTools']>;
  const exposedNames = () => (exposed ??= raw().then(({ tools }) => new Set(tools.map((t) => t.name))));
  const contract = (name: string) => name.replace(/_/g, '.');
  return {
    kind,
    rawListTools: raw,
    async listTools() {
      const listed = await raw();
      exposed = Promise.resolve(new Set(listed.tools.map((t) => t.name)));
      return { ...listed, tools: listed.tools.map((tool) => ({ ...tool, name: contract(tool.name) })) };
    },
    async callTool(params, options) {
      const underscored = params.name.replace(/\./g, '_');
      const name = params.name.includes('.') && (await exposedNames()).has(underscored) ? underscored : params.name;
      return call({ ...params, name }, options) as Promise<CallResult>;
    },
    instructions: () => client.getInstructions(),
    close: () => any.close(),
  };
}

/** The text of a tool result's last text block. */
export function textOf(result: CallResult): string {
  return [...result.content].reverse().find((c) => c.type === 'text')?.text ?? '';
}
