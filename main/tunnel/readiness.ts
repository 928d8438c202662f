/**
 * The two halves of "ready": the tunnel client's own /readyz, and our server answering a real
 * MCP client (2026-07-28: server/discover, then tools/list) that sends exactly the headers the
 * tunnel sends, resolved from the same MCP_EXTRA_HEADERS list and environment. The client's
 * probe counts a 401 as ready; this one does not, so a missing or wrong token shows as an error.
 */
import fs from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SERVER_NAME, VERSION } from '../version.js';
import { resolveHeaderSpec } from './header-spec.js';

export interface Readyz {
  ready: boolean;
  /** The client's own words, e.g. "ready" or "mcp probe failed: ...". */
  body: string;
}

/** The health base URL the client wrote (HEALTH_URL_FILE), or null before it has. */
export function readHealthUrl(file: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
  // Only a loopback http URL is ever asked for anything.
  return /^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost):\d+$/.test(text) ? text : null;
}

export async function fetchReadyz(healthUrl: string, timeoutMs = 2000): Promise<Readyz | null> {
  try {
    const response = await fetch(`${healthUrl}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.text()).trim().slice(0, 300);
    return { ready: response.status === 200, body: body || String(response.status) };
  } catch {
    return null;
  }
}

export type ServerCheck = { ok: true; toolCount: number } | { ok: false; auth: boolean; reason: string };

export async function checkServerThroughTunnelHeaders(url: string, env: Record<string, string>, timeoutMs = 5000): Promise<ServerCheck> {
  let headers: Record<string, string>;
  try {
    headers = resolveHeaderSpec(env.MCP_EXTRA_HEADERS ?? '', env);
  } catch (error) {
    return { ok: false, auth: true, reason: `The tunnel's header list cannot be resolved: ${(error as Error).message}.` };
  }
  const secrets = Object.values(headers);
  const client = new Client(
    { name: `${SERVER_NAME}-tunnel-check`, version: VERSION },
    { versionNegotiation: { mode: { pin: '2026-07-28' }, probe: { timeoutMs } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    let count = 0;
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      count += result.tools.length;
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return { ok: true, toolCount: count };
  } catch (error) {
    let message = error instanceof Error ? error.message : String(error);
    for (const secret of secrets) if (secret) message = message.split(secret).join('<redacted>');
    if (/\b401\b|unauthori[sz]ed/i.test(message)) {
      const sent = headers.authorization ? 'refused the token the tunnel sends' : 'needs a token, and the tunnel sends none';
      return {
        ok: false,
        auth: true,
        reason: `The server ${sent} (HTTP 401). Restart the tunnel after changing the token; with server.auth "oauth" only, use "bearer+oauth".`,
      };
    }
    if (/ECONNREFUSED|fetch failed/i.test(message)) return { ok: false, auth: false, reason: `The server does not answer at ${url}.` };
    return { ok: false, auth: false, reason: `The server did not answer discover and tools/list: ${message.slice(0, 200)}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}
