/**
 * The exact tools/call POST a real client sends, captured once from the client itself (a
 * recording fetch under its transport) so the load generator replays the real shape:
 * - modern: @modelcontextprotocol/client 2.x pinned to 2026-07-28 (no initialize; the _meta
 *   envelope and the Mcp-Method/Mcp-Name headers on every request);
 * - legacy: @modelcontextprotocol/sdk v1 after its initialize (2025-11-25 header, no session id,
 *   an SSE reply from the stateless server).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'chatgpt-mcp-bench', version: '1.0.0' };

function recorder() {
  const seen = { call: undefined };
  const fetchLike = async (input, init = {}) => {
    if (init.method === 'POST' && typeof init.body === 'string' && JSON.parse(init.body).method === 'tools/call') {
      const headers = Object.fromEntries(new Headers(init.headers));
      delete headers['content-length'];
      seen.call = { headers, body: init.body };
    }
    return fetch(input, init);
  };
  return { seen, fetchLike };
}

/** Connects a modern client pinned to 2026-07-28; for listing tools and capturing calls. */
export async function connectModern(url) {
  const { seen, fetchLike } = recorder();
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchLike }));
  return { client, seen };
}

async function connectLegacy(url) {
  const { seen, fetchLike } = recorder();
  const client = new V1Client(CLIENT_INFO);
  await client.connect(new V1StreamableHTTPClientTransport(new URL(url), { fetch: fetchLike }));
  return { client, seen };
}

/**
 * Calls `name` once through a real client of the given shape and returns the request it sent
 * ({headers, body}) plus the client's own view of the result, which must not be an error.
 */
export async function captureCall(shape, url, name, args) {
  const { client, seen } = shape === 'modern' ? await connectModern(url) : await connectLegacy(url);
  try {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed through the ${shape} client: ${JSON.stringify(result.content).slice(0, 300)}`);
    if (!seen.call) throw new Error(`the ${shape} client sent no tools/call POST that could be recorded`);
    return { ...seen.call, result };
  } finally {
    await client.close();
  }
}
