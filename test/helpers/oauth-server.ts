/**
 * The authorization server over real HTTP on loopback, for the tests of its endpoints: a temp
 * state file, the server's injected clock, and the requests an app (or a stranger who found the
 * tunnel URL) sends. `useOAuthServers()` in a test file gives each test a fresh state and clock.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { oauthStatePath } from '../../main/auth/oauth-state.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { authorizeInBrowser, ownerApproves, pkcePair } from './oauth.js';
import { startTestServer, type TestHttpServer } from './servers.js';
import { makeTempDir, removeDir } from './temp.js';

export const REDIRECT = 'https://chatgpt.com/connector_platform_oauth_redirect';

export interface OAuthServers {
  /** The test's temp dir, holding the state file. */
  dir: string;
  stateFile: string;
  /** The servers' clock: move it to let time pass. */
  clock: number;
  /** A server with OAuth on (server.auth "oauth" unless given), on this test's state file and clock. */
  start(server?: ConfigInput['server'], bearerToken?: string, tokenHint?: string): Promise<TestHttpServer>;
  /** Closes this server after the test. */
  track(server: TestHttpServer): void;
  /** Registration, authorization approved by the owner, and the code; the verifier to exchange it. */
  approvedCode(server: TestHttpServer): Promise<{ clientId: string; code: string; verifier: string }>;
}

export function useOAuthServers(): OAuthServers {
  const servers: TestHttpServer[] = [];
  const bed: OAuthServers = {
    dir: '',
    stateFile: '',
    clock: 0,
    async start(server = {}, bearerToken, tokenHint) {
      const running = await startTestServer(
        { server: { auth: 'oauth', ...server } },
        { oauth: { stateFile: bed.stateFile, now: () => bed.clock }, bearerToken, ...(tokenHint ? { tokenHint } : {}) },
      );
      servers.push(running);
      return running;
    },
    track: (server) => void servers.push(server),
    async approvedCode(server) {
      const clientId = await registered(server);
      const { verifier, challenge } = pkcePair();
      const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, challenge), ownerApproves(bed.stateFile));
      expect(outcome.redirect.searchParams.get('state')).toBe('st-1');
      expect(outcome.redirect.searchParams.get('iss')).toBe(origin(server));
      return { clientId, code: outcome.redirect.searchParams.get('code')!, verifier };
    },
  };
  beforeEach(() => {
    bed.dir = makeTempDir('oauth-server-');
    bed.stateFile = oauthStatePath(bed.dir);
    bed.clock = Date.now();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    removeDir(bed.dir);
  });
  return bed;
}

export function origin(server: TestHttpServer): string {
  return new URL(server.url).origin;
}

export async function register(server: TestHttpServer, body: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${origin(server)}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'ChatGPT', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...body }),
  });
}

export async function registered(server: TestHttpServer, body: Record<string, unknown> = {}): Promise<string> {
  const response = await register(server, body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

export function authorizeUrl(server: TestHttpServer, clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${origin(server)}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: server.url,
    scope: 'mcp',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

export async function token(server: TestHttpServer, form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${origin(server)}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export async function exchange(server: TestHttpServer, grant: { clientId: string; code: string; verifier: string }, extra: Record<string, string> = {}) {
  return token(server, {
    grant_type: 'authorization_code',
    code: grant.code,
    code_verifier: grant.verifier,
    client_id: grant.clientId,
    redirect_uri: REDIRECT,
    ...extra,
  });
}

/** tools/list with this access token: the HTTP status. */
export async function mcpStatus(server: TestHttpServer, accessToken: string): Promise<number> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await response.text();
  return response.status;
}
