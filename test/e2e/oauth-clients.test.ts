/**
 * Real OAuth clients through the whole flow against the server on loopback: discovery from the
 * 401, dynamic registration, PKCE, the waiting page, the owner's approval through the same
 * function the tray calls, the code exchange, then tools/list and a tool call with the access
 * token. Then an expired access token is refreshed by the client itself, and revoking the
 * client makes the next call 401.
 */
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listConnections, revokeClient } from '../../main/auth/owner-actions.js';
import { oauthStatePath } from '../../main/auth/oauth-state.js';
import type { ToolCallEvent } from '../../main/mcp/server.js';
import { MODERN } from '../helpers/clients.js';
import { authorizeInBrowser, MemoryOAuthProvider, ownerApproves } from '../helpers/oauth.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { localhostCertificate, startHttpsServer } from '../helpers/tls.js';
import { readState } from '../../main/auth/oauth-state.js';

describe('MCP v2 client with its OAuth provider', () => {
  let dir: string;
  let stateFile: string;
  let server: TestHttpServer;
  let clock = Date.now();
  const events: ToolCallEvent[] = [];

  beforeAll(async () => {
    dir = makeTempDir('oauth-e2e-');
    stateFile = oauthStatePath(dir);
    server = await startTestServer({ server: { auth: 'oauth' } }, { observer: (e) => void events.push(e), oauth: { stateFile, now: () => clock } });
  });
  afterAll(async () => {
    await server?.close();
    removeDir(dir);
  });

  it('registers, waits for the owner, exchanges the code, calls tools, refreshes, and is cut off by revocation', async () => {
    const provider = new MemoryOAuthProvider('http://127.0.0.1:1/callback');
    const connect = async () => {
      const client = new Client({ name: 'oauth-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
      await client.connect(transport);
      return { client, transport };
    };

    // No token yet: the client discovers the server from the 401, registers, and asks to be sent to the authorize page.
    const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const probe = new Client({ name: 'oauth-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await expect(probe.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.pathname).toBe('/oauth/authorize');
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(server.url);

    const outcome = await authorizeInBrowser(provider.authorizationUrl!, ownerApproves(stateFile));
    expect(outcome.redirect.origin + outcome.redirect.pathname).toBe('http://127.0.0.1:1/callback');
    const code = outcome.redirect.searchParams.get('code');
    expect(code).toMatch(/^cmcp_ac_/);
    await first.finishAuth(outcome.redirect.searchParams);

    const { client } = await connect();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('system.info');
    const info = await client.callTool({ name: 'system.info', arguments: {} });
    expect(info.isError).toBeFalsy();
    // The activity view learns which client made the call.
    expect(events.filter((e) => e.phase === 'end').at(-1)?.client).toBe('MCP v2 test client');
    const listed = listConnections(stateFile).clients;
    expect(listed).toHaveLength(1);
    expect(listed[0]!.name).toBe('MCP v2 test client');
    expect(listed[0]!.approvedAt).not.toBeNull();
    // The audit log's caller: the client by id and name, never its token.
    const ended = events.filter((e) => e.phase === 'end').at(-1)!;
    expect(ended.caller).toEqual({ kind: 'oauth', id: listed[0]!.id, name: 'MCP v2 test client' });
    expect(JSON.stringify(ended)).not.toContain(provider.tokens()!.access_token);

    // An hour later the access token has expired: the server refuses it, the client refreshes by itself.
    const oldTokens = provider.tokens()!;
    clock += 61 * 60_000;
    const stale = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${oldTokens.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(stale.status).toBe(401);
    expect(stale.headers.get('www-authenticate')).toMatch(/resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
    const again = await client.callTool({ name: 'system.info', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(provider.tokens()!.access_token).not.toBe(oldTokens.access_token);
    expect(provider.tokens()!.refresh_token).not.toBe(oldTokens.refresh_token);
    await client.close();

    // The owner revokes the client: its current access token gets 401 at the very next request.
    const current = provider.tokens()!.access_token;
    await revokeClient(stateFile, listed[0]!.id);
    const cut = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${current}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(cut.status).toBe(401);
    expect(listConnections(stateFile).clients).toHaveLength(0);
    expect(path.basename(stateFile)).toBe('oauth.json');
  });

  it('uses a client ID metadata document when the client has one, instead of registering; a day later reads it again on its own budget', async () => {
    const docDir = makeTempDir('oauth-cimd-');
    const tls = localhostCertificate(docDir);
    const routes: Parameters<typeof startHttpsServer>[1] = {};
    const host = await startHttpsServer(tls, routes);
    const documentUrl = `${host.origin}/oauth/client.json`;
    const redirect = 'http://127.0.0.1:1/doc-callback';
    routes['/oauth/client.json'] = {
      body: JSON.stringify({ client_id: documentUrl, client_name: 'Doc-described client', redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
    };
    // Loopback is allowed here only because the document host is a test server on this machine.
    const cimdState = oauthStatePath(docDir);
    let cimdClock = Date.now();
    const cimdServer = await startTestServer(
      { server: { auth: 'oauth' } },
      { oauth: { stateFile: cimdState, now: () => cimdClock, metadataFetch: { ca: tls.cert, addressAllowed: (a) => a === '127.0.0.1' } } },
    );
    try {
      const provider = new MemoryOAuthProvider(redirect, 'Doc-described client', documentUrl);
      const transport = new StreamableHTTPClientTransport(new URL(cimdServer.url), { authProvider: provider });
      const probe = new Client({ name: 'cimd', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
      await expect(probe.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.authorizationUrl?.searchParams.get('client_id')).toBe(documentUrl);
      const outcome = await authorizeInBrowser(provider.authorizationUrl!, ownerApproves(cimdState));
      await transport.finishAuth(outcome.redirect.searchParams);
      const client = new Client({ name: 'cimd', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(cimdServer.url), { authProvider: provider }));
      expect((await client.callTool({ name: 'system.info', arguments: {} })).isError).toBeFalsy();
      await client.close();
      expect(host.hits).toContain('/oauth/client.json');
      expect(readState(cimdState).clients).toMatchObject([{ id: documentUrl, source: 'metadata-document', name: 'Doc-described client' }]);

      // A day later the document is read again. Strangers' junk client_id URLs have used up the
      // budget shared by new apps meanwhile: the approved app's own budget pays for its re-read.
      cimdClock += 25 * 60 * 60_000;
      const authorize = (clientId: string, redirectUri: string) =>
        fetch(
          `${new URL(cimdServer.url).origin}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 's' })}`,
          { redirect: 'manual' },
        );
      for (let i = 0; i < 12; i++) await authorize(`https://127.0.0.1:1/junk-${i}.json`, 'https://junk.example/cb');
      const refused = await authorize('https://127.0.0.1:1/one-more.json', 'https://junk.example/cb');
      expect(await refused.text()).toContain('Too many new apps');
      const again = await authorize(documentUrl, redirect);
      expect(again.status).toBe(303);
      expect(host.hits.filter((hit) => hit === '/oauth/client.json').length).toBeGreaterThanOrEqual(2);
    } finally {
      await cimdServer.close();
      await host.close();
      removeDir(docDir);
    }
  });
});
