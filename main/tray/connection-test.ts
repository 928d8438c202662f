/**
 * "Test connection": a real MCP client (protocol 2026-07-28, as ChatGPT's tunnel will speak it
 * modernly) connects to the running server the way a remote client would: server/discover,
 * then tools/list. The answer is the tool count or a message a person can act on; the token
 * never appears in it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ConnectionTestResult } from './bridge-api.js';
import { SERVER_NAME, VERSION } from '../version.js';

export const PROTOCOL_VERSION = '2026-07-28';

export interface ConnectionTarget {
  url: string;
  token?: string | undefined;
  timeoutMs?: number;
}

export async function testConnection(target: ConnectionTarget): Promise<ConnectionTestResult> {
  const first = await attempt(target);
  // fetch pools keep-alive sockets; one from before a server restart fails once, then a fresh one is used.
  if (!first.ok && first.stale) return (await attempt(target)).result;
  return first.result;
}

async function attempt({
  url,
  token,
  timeoutMs = 5000,
}: ConnectionTarget): Promise<{ ok: true; result: ConnectionTestResult } | { ok: false; stale: boolean; result: ConnectionTestResult }> {
  const started = performance.now();
  const client = new Client(
    { name: `${SERVER_NAME}-settings`, version: VERSION },
    { versionNegotiation: { mode: { pin: PROTOCOL_VERSION }, probe: { timeoutMs } } },
  );
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      tools.push(...result.tools.map((tool) => tool.name));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return { ok: true, result: { ok: true, url, toolCount: tools.length, tools, durationMs: Math.round(performance.now() - started) } };
  } catch (error) {
    const code = errnoCode(error);
    return { ok: false, stale: code === 'UND_ERR_SOCKET' || code === 'ECONNRESET', result: { ok: false, url, error: describe(error, token) } };
  } finally {
    await client.close().catch(() => undefined);
  }
}

function describe(error: unknown, token: string | undefined): string {
  const code = errnoCode(error);
  if (code === 'ECONNREFUSED') return 'Connection refused: nothing is listening at this address. Is the server paused or stopped?';
  let message = error instanceof Error ? error.message : String(error);
  if (/\b401\b|unauthori[sz]ed/i.test(message)) message = 'The server refused the token (HTTP 401). Save the token and restart the server.';
  if (token) message = message.split(token).join('<redacted>');
  return message.length > 300 ? `${message.slice(0, 299)}…` : message;
}

/** fetch wraps the socket error a few causes deep (TypeError -> SDK error -> Error{code}). */
function errnoCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
