/** Hand-built modern (2026-07-28) JSON-RPC requests, for tests that must see raw HTTP. */
export const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
};

export function modernRequest(id: number | string, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
}

/** POSTs with the routing headers the modern HTTP binding requires (Mcp-Method, Mcp-Name). */
export function postModern(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  const message = JSON.parse(body) as { method: string; params?: { name?: string } };
  const routing: Record<string, string> = { 'mcp-method': message.method };
  if (message.params?.name) routing['mcp-name'] = message.params.name;
  return fetch(url, { method: 'POST', headers: { ...MODERN_HEADERS, ...routing, ...headers }, body });
}
