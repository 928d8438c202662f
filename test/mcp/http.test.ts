/** The HTTP boundary: routes, Host/Origin, bearer token, body cap, resilience. */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernRequest, postModern, MODERN_HEADERS } from '../helpers/raw-rpc.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { startHttpServer } from '../../main/mcp/http.js';
import { createServerFactory } from '../../main/mcp/server.js';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { makeConfig, silentLogger } from '../helpers/servers.js';

const TOKEN = 'boundary-token-0123456789';

/** node:http request with full control of Host and other headers (fetch forbids setting Host). */
function rawRequest(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'POST',
        path: options.path ?? target.pathname,
        headers: options.headers,
        // An explicit empty Host means "send none at all" (Node would otherwise add one).
        setHost: options.headers?.host !== '',
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('HTTP boundary', () => {
  let server: TestHttpServer;
  const good = () => ({ ...MODERN_HEADERS, 'mcp-method': 'tools/list', authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    server = await startTestServer({ server: { token: TOKEN, maxRequestBytes: 64 * 1024 }, filesystem: { maxWriteBytes: 1024 } });
  });
  afterAll(() => server.close());

  it('answers /healthz with liveness and version only', async () => {
    const res = await fetch(server.url.replace('/mcp', '/healthz'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['status', 'version']);
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it('answers /readyz "ready" without a token, only status and version; other methods are refused', async () => {
    const res = await fetch(server.url.replace('/mcp', '/readyz'));
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(['status', 'version']);
    expect((await fetch(server.url.replace('/mcp', '/readyz'), { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(server.url.replace('/mcp', '/readyz'), { method: 'POST' })).status).toBe(405);
  });

  it('is not ready while the tool layer cannot build a server; after close nothing answers', async () => {
    const config = makeConfig({ server: { auth: 'none', port: 0 } });
    const adapter = createLocalAdapter();
    const real = createServerFactory({ config, adapter, logger: silentLogger });
    let broken = false;
    const factory = Object.assign((ctx: never) => {
      if (broken) throw new Error('tool layer broken');
      return real(ctx);
    }, real);
    const running = await startHttpServer({ config, factory, logger: silentLogger });
    const readyz = () =>
      fetch(running.url.replace('/mcp', '/readyz'), { headers: { connection: 'close' } }).then(async (r) => [
        r.status,
        ((await r.json()) as { status: string }).status,
      ]);
    expect(await readyz()).toEqual([200, 'ready']);
    broken = true;
    expect(await readyz()).toEqual([503, 'failing']);
    broken = false;
    const closing = running.close();
    await closing;
    await adapter.close();
    await expect(readyz()).rejects.toThrow();
  });

  it.each(['/', '/index.html', '/mcp/', '/mcp/../etc/passwd', '/healthz/x', '/.well-known/oauth-protected-resource', '/out/main/cli.js'])(
    '404s %s with no listing or file',
    async (path) => {
      const res = await rawRequest(server.url, { method: 'GET', path, headers: { host: new URL(server.url).host } });
      expect(res.status).toBe(404);
      expect(res.body).toBe('{"error":"not found"}');
    },
  );

  it.each(['GET', 'DELETE', 'PUT'])('answers %s /mcp with 405', async (method) => {
    const res = await fetch(server.url, { method, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it.each([
    ['evil.example', 'a rebinding name'],
    ['127.0.0.1.evil.example', 'a loopback-prefixed name'],
    ['localhost.evil', 'a localhost-prefixed name'],
    ['', 'a missing Host'],
    ['127.0.0.1:80:80', 'a malformed Host'],
  ])('refuses Host "%s" (%s) with 403 before anything else', async (host) => {
    const res = await rawRequest(server.url, { headers: { ...good(), host }, body: modernRequest(1, 'tools/list') });
    expect(res.status).toBe(403);
    expect(res.body).toContain('server.allowedHosts');
  });

  it('refuses a spoofed Host even on /healthz and unknown paths (checked before routing)', async () => {
    for (const path of ['/healthz', '/nope']) {
      const res = await rawRequest(server.url, { method: 'GET', path, headers: { host: 'attacker.test' } });
      expect(res.status).toBe(403);
    }
  });

  it.each(['https://evil.example', 'http://localhost:1', 'null', 'http://127.0.0.1.evil.example', 'file://'])('refuses Origin %s with 403', async (origin) => {
    const res = await fetch(server.url, { method: 'POST', headers: { ...good(), origin }, body: modernRequest(1, 'tools/list') });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('server.allowedOrigins');
  });

  it("accepts the server's own loopback origin and no origin", async () => {
    const own = `http://127.0.0.1:${server.port}`;
    const withOrigin = await fetch(server.url, { method: 'POST', headers: { ...good(), origin: own }, body: modernRequest(1, 'tools/list') });
    expect(withOrigin.status).toBe(200);
    const without = await postModern(server.url, modernRequest(2, 'tools/list'), { authorization: `Bearer ${TOKEN}` });
    expect(without.status).toBe(200);
  });

  it.each([
    ['no header', undefined],
    ['a wrong token', 'Bearer wrong-token-0123456789'],
    ['a token prefix', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token plus a suffix', `Bearer ${TOKEN}x`],
    ['another scheme', `Basic ${TOKEN}`],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 with WWW-Authenticate for %s', async (_name, authorization) => {
    const headers: Record<string, string> = { ...MODERN_HEADERS, 'mcp-method': 'tools/list' };
    if (authorization !== undefined) headers.authorization = authorization;
    const res = await fetch(server.url, { method: 'POST', headers, body: modernRequest(1, 'tools/list') });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(await res.text()).not.toContain(TOKEN);
  });

  it('answers 413 to a body over the cap, by Content-Length and when streamed', async () => {
    const big = modernRequest(1, 'tools/call', { name: 'system.info', arguments: { pad: 'x'.repeat(70 * 1024) } });
    const res = await fetch(server.url, { method: 'POST', headers: good(), body: big });
    expect(res.status).toBe(413);
    const chunked = await rawRequest(server.url, { headers: { ...good(), host: new URL(server.url).host, 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
  });

  it('answers malformed JSON with a JSON-RPC parse error and keeps serving', async () => {
    for (const body of ['{bad', '', '[', '{"jsonrpc":"2.0"']) {
      const res = await fetch(server.url, { method: 'POST', headers: good(), body });
      expect(res.status).toBe(400);
      const reply = (await res.json()) as { error: { code: number } };
      expect(reply.error.code).toBe(-32700);
    }
    const ok = await postModern(server.url, modernRequest(3, 'tools/list'), { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
  });

  it('logs refusals without the token or request bodies', () => {
    const logs = server.logLines.join('');
    expect(logs).toContain('"reason":"token"');
    expect(logs).toContain('"reason":"host"');
    expect(logs).not.toContain(TOKEN);
    expect(logs).not.toContain('wrong-token');
  });
});

describe('tunnels and binding', () => {
  it('accepts a tunnel Host only when listed in server.allowedHosts', async () => {
    const server = await startTestServer({ server: { token: TOKEN, allowedHosts: ['mcp.example.com'] } });
    try {
      const headers = { ...MODERN_HEADERS, 'mcp-method': 'tools/list', authorization: `Bearer ${TOKEN}` };
      const ok = await rawRequest(server.url, { headers: { ...headers, host: 'mcp.example.com' }, body: modernRequest(1, 'tools/list') });
      expect(ok.status).toBe(200);
      const other = await rawRequest(server.url, { headers: { ...headers, host: 'other.example.com' }, body: modernRequest(1, 'tools/list') });
      expect(other.status).toBe(403);
      // A rebinding page can read the refusal: it lists this computer's names, not the tunnel's.
      expect(other.body).toContain('localhost, 127.0.0.1, [::1] and 1 set in server.allowedHosts or server.publicUrl, not listed here');
      expect(other.body).not.toContain('mcp.example.com');
    } finally {
      await server.close();
    }
  });

  it.each([
    [{ host: '0.0.0.0' }, /not a loopback address/],
    [{ host: '0.0.0.0', allowNonLoopback: true, auth: 'none' as const }, /with server.auth "none"/],
    [{ host: '0.0.0.0', allowNonLoopback: true, auth: 'bearer' as const }, /No bearer token/],
  ])('refuses to listen on a non-loopback address without the explicit setting and a credential: %j', async (settings, message) => {
    const config = makeConfig({ server: settings });
    const factory = createServerFactory({ config, adapter: createLocalAdapter(), logger: silentLogger });
    await expect(startHttpServer({ config, factory, logger: silentLogger })).rejects.toThrow(message);
  });

  it('reports a port in use clearly', async () => {
    const first = await startTestServer();
    try {
      const config = makeConfig({ server: { port: first.port } });
      const factory = createServerFactory({ config, adapter: createLocalAdapter(), logger: silentLogger });
      await expect(startHttpServer({ config, factory, logger: silentLogger })).rejects.toThrow(/already in use/);
    } finally {
      await first.close();
    }
  });
});
