/**
 * The authorization server over real HTTP on loopback, attacked the way a stranger who found
 * the tunnel URL (or a leaked code or token) would: every refusal the design names, plus the
 * discovery documents and the state file's secrecy. Time is the server's injected clock.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { oauthStatePath, readState } from '../../main/auth/oauth-state.js';
import { approve, deny, listConnections } from '../../main/auth/owner-actions.js';
import { authorizeInBrowser, hop, ownerApproves, pkcePair } from '../helpers/oauth.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import type { ConfigInput } from '../../main/config/schema.js';

const REDIRECT = 'https://chatgpt.com/connector_platform_oauth_redirect';

let dir: string;
let stateFile: string;
let clock: number;
const servers: TestHttpServer[] = [];

async function start(server: ConfigInput['server'] = {}, bearerToken?: string): Promise<TestHttpServer> {
  const running = await startTestServer({ server: { auth: 'oauth', ...server } }, { oauth: { stateFile, now: () => clock }, bearerToken });
  servers.push(running);
  return running;
}

function origin(server: TestHttpServer): string {
  return new URL(server.url).origin;
}

async function register(server: TestHttpServer, body: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${origin(server)}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'ChatGPT', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...body }),
  });
}

async function registered(server: TestHttpServer, body: Record<string, unknown> = {}): Promise<string> {
  const response = await register(server, body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function authorizeUrl(server: TestHttpServer, clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
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

/** Registration, authorization approved by the owner, and the code; the verifier to exchange it. */
async function approvedCode(server: TestHttpServer): Promise<{ clientId: string; code: string; verifier: string }> {
  const clientId = await registered(server);
  const { verifier, challenge } = pkcePair();
  const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, challenge), ownerApproves(stateFile));
  expect(outcome.redirect.searchParams.get('state')).toBe('st-1');
  expect(outcome.redirect.searchParams.get('iss')).toBe(origin(server));
  return { clientId, code: outcome.redirect.searchParams.get('code')!, verifier };
}

async function token(server: TestHttpServer, form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${origin(server)}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function exchange(server: TestHttpServer, grant: { clientId: string; code: string; verifier: string }, extra: Record<string, string> = {}) {
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
async function mcpStatus(server: TestHttpServer, accessToken: string): Promise<number> {
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

beforeEach(() => {
  dir = makeTempDir('oauth-server-');
  stateFile = oauthStatePath(dir);
  clock = Date.now();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeDir(dir);
});

describe('discovery', () => {
  it('answers /mcp without a token with 401 and a resource_metadata pointer, and serves both metadata documents', async () => {
    const server = await start();
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${origin(server)}/.well-known/oauth-protected-resource/mcp`);

    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const prm = (await (await fetch(origin(server) + path)).json()) as Record<string, unknown>;
      expect(prm.resource).toBe(server.url);
      expect(prm.authorization_servers).toEqual([origin(server)]);
    }
    const as = (await (await fetch(`${origin(server)}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: origin(server),
      authorization_endpoint: `${origin(server)}/oauth/authorize`,
      token_endpoint: `${origin(server)}/oauth/token`,
      registration_endpoint: `${origin(server)}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      client_id_metadata_document_supported: true,
    });
  });

  it('names the tunnel URL as issuer and resource when server.publicUrl is set, and accepts its Host', async () => {
    const server = await start({ publicUrl: 'https://calm-river.trycloudflare.com' });
    const response = await fetch(`${origin(server)}/.well-known/oauth-protected-resource/mcp`, { headers: { host: 'calm-river.trycloudflare.com' } });
    expect(await response.json()).toMatchObject({
      resource: 'https://calm-river.trycloudflare.com/mcp',
      authorization_servers: ['https://calm-river.trycloudflare.com'],
    });
  });

  it('has no OAuth routes when server.auth is "bearer"', async () => {
    const server = await startTestServer({ server: { token: 'a'.repeat(32) } });
    servers.push(server);
    expect((await fetch(`${origin(server)}/.well-known/oauth-authorization-server`)).status).toBe(404);
  });
});

describe('the whole grant, and what the state file keeps', () => {
  it('issues tokens that work on /mcp, and stores only hashes in an owner-only file', async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const tokens = await exchange(server, grant);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: LIMITS.accessTokenMs / 1000, scope: 'mcp' });
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);

    const text = fs.readFileSync(stateFile, 'utf8');
    for (const secret of [tokens.body.access_token!, tokens.body.refresh_token!, grant.code]) expect(text).not.toContain(secret);
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
  });

  it('records the first use at once, so the Connected clients list shows it right after the call', async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const tokens = await exchange(server, grant);
    expect(listConnections(stateFile, clock).clients[0]!.lastUsedAt).toBeNull();
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
    // Read right after the answer, as the tray and `chatgpt-mcp oauth list` do.
    expect(listConnections(stateFile, clock).clients[0]!.lastUsedAt).toBe(new Date(clock).toISOString());

    // Later uses are written at most once a minute: a use 10 s later leaves the time alone, one after a minute moves it.
    const first = clock;
    clock += 10_000;
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
    expect(readState(stateFile).clients[0]!.lastUsedAt).toBe(first);
    clock += LIMITS.lastUsedWriteMs;
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
    await expect.poll(() => readState(stateFile).clients[0]!.lastUsedAt).toBe(clock);
  });

  it('a "last used" write that fails does not fail the call', async () => {
    const server = await start();
    const tokens = await exchange(server, await approvedCode(server));
    // Another writer holds the state file's lock (a stuck CLI): the write waits, the call must not.
    const lock = `${dir}/.oauth.json.lock`;
    fs.writeFileSync(lock, 'stuck\n');
    try {
      const started = Date.now();
      expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
      expect(Date.now() - started).toBeLessThan(LIMITS.lastUsedWaitMs + 1_500);
    } finally {
      fs.rmSync(lock, { force: true });
    }
    // The write went on waiting: once the other writer is gone, the use is recorded and the lock released.
    await expect.poll(() => readState(stateFile).clients[0]!.lastUsedAt).toBe(clock);
    await expect.poll(() => fs.existsSync(lock)).toBe(false);
  });

  it('accepts both the static bearer token and OAuth tokens with "bearer+oauth", and only OAuth with "oauth"', async () => {
    const staticToken = 's'.repeat(40);
    const both = await start({ auth: 'bearer+oauth' }, staticToken);
    expect(await mcpStatus(both, staticToken)).toBe(200);
    const tokens = await exchange(both, await approvedCode(both));
    expect(await mcpStatus(both, tokens.body.access_token!)).toBe(200);
    expect(await mcpStatus(both, 'wrong-token-value')).toBe(401);

    const oauthOnly = await start({ auth: 'oauth', token: staticToken });
    expect(await mcpStatus(oauthOnly, staticToken)).toBe(401);
  });
});

describe('refused', () => {
  it('a wrong PKCE verifier, and the code is burnt by the attempt', async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const wrong = await exchange(server, { ...grant, verifier: pkcePair().verifier });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.body.error_description).toMatch(/code_verifier/);
    expect((await exchange(server, grant)).body.error).toBe('invalid_grant');
  });

  it('a redirect URI that differs by one character, at the authorize page and at the token endpoint', async () => {
    const server = await start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    const page = await hop(authorizeUrl(server, clientId, challenge, { redirect_uri: REDIRECT + 'x' }));
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toMatch(/did not register/);

    const grant = await approvedCode(server);
    const swapped = await exchange(server, grant, { redirect_uri: REDIRECT.replace('redirect', 'redirecT') });
    expect(swapped).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a token for another resource: at authorize, at the token endpoint, and a token of another server on this one', async () => {
    const server = await start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    const page = await hop(authorizeUrl(server, clientId, challenge, { resource: 'https://other.example/mcp' }));
    expect(page.status).toBe(303);
    const back = new URL(page.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('code')).toBeNull();

    const grant = await approvedCode(server);
    expect((await exchange(server, grant, { resource: 'https://other.example/mcp' })).body.error).toBe('invalid_target');

    // A second server (another port, so another resource) sharing the same state file.
    const other = await start();
    const theirs = await exchange(other, await approvedCode(other));
    expect(await mcpStatus(other, theirs.body.access_token!)).toBe(200);
    expect(await mcpStatus(server, theirs.body.access_token!)).toBe(401);
  });

  it('an expired access token', async () => {
    const server = await start();
    const tokens = await exchange(server, await approvedCode(server));
    clock += LIMITS.accessTokenMs + 1000;
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(401);
  });

  it('a replayed code, and the tokens the first exchange got are revoked', async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const first = await exchange(server, grant);
    expect(first.status).toBe(200);
    const replay = await exchange(server, grant);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(server, first.body.access_token!)).toBe(401);
    expect((await token(server, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: grant.clientId })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('a refresh token used twice, and its whole family is revoked', async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const issued = await exchange(server, grant);
    const refresh = (value: string) => token(server, { grant_type: 'refresh_token', refresh_token: value, client_id: grant.clientId });
    const rotated = await refresh(issued.body.refresh_token!);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect(await mcpStatus(server, rotated.body.access_token!)).toBe(200);

    const reused = await refresh(issued.body.refresh_token!);
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(server, rotated.body.access_token!)).toBe(401);
    expect((await refresh(rotated.body.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it('an authorization nobody approved: the page only waits, then the app hears access_denied', async () => {
    const server = await start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    let reloads = 0;
    const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, challenge), async () => {}, {
      maxReloads: 10,
      betweenReloads: async () => {
        // Each reload before the deadline is a plain waiting page; then time runs out.
        reloads++;
        if (reloads === 3) clock += LIMITS.consentMs + 1;
      },
    });
    expect(reloads).toBe(3);
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
    expect(outcome.redirect.searchParams.get('code')).toBeNull();
    expect(outcome.page.csp).toMatch(/default-src 'none'/);
    expect(outcome.page.csp).toMatch(/frame-ancestors 'none'/);
    expect(outcome.page.html).not.toMatch(/<script/i);
    expect(readState(stateFile).codes).toHaveLength(0);
    await expect(approve(stateFile, outcome.shownCode, () => clock)).rejects.toThrow(/no authorization request with code/);
  });

  it('an authorization the owner denied', async () => {
    const server = await start();
    const clientId = await registered(server);
    const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, pkcePair().challenge), (code) => deny(stateFile, code).then(() => undefined));
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
  });

  it('PKCE missing or "plain", an unknown client, an unknown scope', async () => {
    const server = await start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    for (const extra of [{ code_challenge_method: 'plain' }, { code_challenge: 'short' }] as Record<string, string>[]) {
      const page = await hop(authorizeUrl(server, clientId, challenge, extra));
      expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    }
    const scope = await hop(authorizeUrl(server, clientId, challenge, { scope: 'admin' }));
    expect(new URL(scope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    const unknown = await hop(authorizeUrl(server, 'cmcp_client_nobody', challenge));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    expect(listConnections(stateFile).pending).toHaveLength(0);
  });

  it('a HEAD request, a missing redirect_uri, an oversized state: no request is created', async () => {
    const server = await start();
    const clientId = await registered(server);
    const url = authorizeUrl(server, clientId, pkcePair().challenge);
    expect((await fetch(url, { method: 'HEAD', redirect: 'manual' })).status).toBe(405);
    const noRedirect = new URL(url);
    noRedirect.searchParams.delete('redirect_uri');
    expect((await hop(noRedirect)).status).toBe(400);
    const longState = new URL(url);
    longState.searchParams.set('state', 'x'.repeat(1025));
    const refused = await hop(longState);
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    expect(readState(stateFile).pending).toHaveLength(0);
  });

  it('a flood of registrations: rate-limited per minute, and the number of clients is bounded', async () => {
    const server = await start();
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.registrationsPerMinute + 5; i++) statuses.push((await register(server)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMITS.registrationsPerMinute);
    const limited = await register(server);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Minute after minute, the total stays bounded: unapproved clients make room, oldest first.
    for (let minute = 0; readState(stateFile).clients.length < LIMITS.maxClients; minute++) {
      clock += 60_000;
      for (let i = 0; i < LIMITS.registrationsPerMinute; i++) expect((await register(server)).status).toBe(201);
    }
    const oldest = readState(stateFile).clients[0]!.id;
    clock += 60_000;
    expect((await register(server)).status).toBe(201);
    const after = readState(stateFile).clients;
    expect(after).toHaveLength(LIMITS.maxClients);
    expect(after.map((c) => c.id)).not.toContain(oldest);
  });

  it('a Basic client credential with a malformed %-escape is refused as no client, not a server error', async () => {
    const server = await start();
    const authorization = `Basic ${Buffer.from('%zz:secret').toString('base64')}`;
    for (const path of ['/oauth/token', '/oauth/revoke']) {
      const response = await fetch(`${origin(server)}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', token: 'x' }),
      });
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it('bad registrations: no redirect URI, http to another host (127.evil.example too), a fragment, javascript:', async () => {
    const server = await start();
    for (const body of [
      { redirect_uris: [] },
      { redirect_uris: ['http://evil.example/cb'] },
      // Names that only look like loopback addresses
      { redirect_uris: ['http://127.evil.example/cb'] },
      { redirect_uris: ['http://127.0.0.1.nip.io/cb'] },
      { redirect_uris: ['https://ok.example/cb#frag'] },
      { redirect_uris: ['javascript:alert(1)'] },
      { redirect_uris: [REDIRECT], grant_types: ['client_credentials'] },
    ]) {
      const response = await register(server, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/invalid_(client_metadata|redirect_uri)/);
    }
    expect(readState(stateFile).clients).toHaveLength(0);
  });

  it('a flood of junk token requests: refused past the limit, while a valid refresh and a valid code exchange still succeed', async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const issued = await exchange(server, grant);
    expect(issued.status).toBe(200);
    const second = await approvedCode(server);

    // A stranger with the tunnel URL: unknown refresh tokens, made-up codes, other grants, junk bodies.
    const junk = (i: number): Record<string, string> =>
      i % 3 === 0
        ? { grant_type: 'refresh_token', refresh_token: `cmcp_rt_junk${i}`, client_id: grant.clientId }
        : i % 3 === 1
          ? { grant_type: 'authorization_code', code: `cmcp_ac_junk${i}`, code_verifier: 'x'.repeat(43), client_id: grant.clientId, redirect_uri: REDIRECT }
          : { grant_type: 'client_credentials', client_id: 'nobody' };
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.tokenRequestsPerMinute + 10; i++) statuses.push((await token(server, junk(i))).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(0, LIMITS.tokenRequestsPerMinute).every((s) => s === 400 || s === 401)).toBe(true);
    const refused = await token(server, junk(0));
    expect(refused.status).toBe(429);
    expect(refused.body.error_description).toMatch(/without a valid code or refresh token.*not held back/);

    // The owner's client is not locked out: its refresh token and its fresh code (with the right PKCE verifier) still work.
    const rotated = await token(server, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token!, client_id: grant.clientId });
    expect(rotated.status).toBe(200);
    expect(await mcpStatus(server, rotated.body.access_token!)).toBe(200);
    // A code without its verifier is junk too (so a stolen code buys nothing); with it, it is exchanged.
    expect(
      (
        await token(server, {
          grant_type: 'authorization_code',
          code: second.code,
          code_verifier: 'y'.repeat(43),
          client_id: second.clientId,
          redirect_uri: REDIRECT,
        })
      ).status,
    ).toBe(429);
    expect((await exchange(server, second)).status).toBe(200);
    // A refresh token presented with another client's id is junk as well.
    expect((await token(server, { grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token!, client_id: second.clientId })).status).toBe(429);

    // The replay of a used refresh token still revokes its family during the flood.
    const replay = await token(server, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token!, client_id: grant.clientId });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(server, rotated.body.access_token!)).toBe(401);

    // Junk is still refused until the minute is over; then it is answered (and refused) again.
    expect((await token(server, junk(3))).status).toBe(429);
    clock += 60_000;
    expect((await token(server, junk(3))).status).toBe(400);
  });

  it("a client's own budget: requests with its valid refresh token are limited per client, not without limit", async () => {
    const server = await start();
    const grant = await approvedCode(server);
    const issued = await exchange(server, grant);
    // A live refresh token presented for another resource fails without being used up; it still counts against the client.
    const wrongTarget = () =>
      token(server, {
        grant_type: 'refresh_token',
        refresh_token: issued.body.refresh_token!,
        client_id: grant.clientId,
        resource: 'https://elsewhere.example/mcp',
      });
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.tokenRequestsPerClientPerMinute + 1; i++) statuses.push((await wrongTarget()).status);
    // The code exchange above was the first of this minute's budget.
    expect(statuses.filter((s) => s === 400)).toHaveLength(LIMITS.tokenRequestsPerClientPerMinute - 1);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // Junk from others has its own budget, untouched by this client's.
    expect((await token(server, { grant_type: 'refresh_token', refresh_token: 'cmcp_rt_junk', client_id: grant.clientId })).status).toBe(400);
    clock += 60_000;
    expect((await token(server, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token!, client_id: grant.clientId })).status).toBe(200);
  });

  it('revocation: junk shares the limit, a known token is still revoked during a flood', async () => {
    const server = await start();
    const issued = await exchange(server, await approvedCode(server));
    const revoke = (value: string) =>
      fetch(`${origin(server)}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: value }),
      });
    for (let i = 0; i < LIMITS.tokenRequestsPerMinute; i++) expect((await revoke(`junk-${i}`)).status).toBe(200);
    expect((await revoke('junk-more')).status).toBe(429);
    expect((await revoke(issued.body.access_token!)).status).toBe(200);
    expect(await mcpStatus(server, issued.body.access_token!)).toBe(401);
  });

  it("a flood of authorization attempts for strangers' clients does not crowd out a client the owner approved before", async () => {
    const server = await start();
    const owner = await approvedCode(server);
    // A stranger fills the waiting requests and the shared per-minute budget with a client of its own.
    const stranger = await registered(server, { client_name: 'Stranger' });
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.authorizationsPerMinute; i++) statuses.push((await hop(authorizeUrl(server, stranger, pkcePair().challenge))).status);
    expect(statuses.filter((s) => s === 303)).toHaveLength(LIMITS.maxPending);
    const limited = await hop(authorizeUrl(server, stranger, pkcePair().challenge));
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain(`${LIMITS.authorizationsPerMinute} a minute, all callers together`);

    // The owner's app reconnects (same client, approved before): its request waits for the owner, who approves it.
    const { verifier, challenge } = pkcePair();
    const outcome = await authorizeInBrowser(authorizeUrl(server, owner.clientId, challenge), ownerApproves(stateFile));
    const code = outcome.redirect.searchParams.get('code')!;
    expect((await exchange(server, { clientId: owner.clientId, code, verifier })).status).toBe(200);

    // Its own budget is bounded too: a leaked client id buys a few waiting requests, not a flood.
    const again: number[] = [];
    for (let i = 0; i < LIMITS.authorizationsPerApprovedClientPerMinute + 1; i++)
      again.push((await hop(authorizeUrl(server, owner.clientId, pkcePair().challenge))).status);
    // One of this minute's budget went to the reconnection above; of the rest, only maxPendingPerApprovedClient may wait.
    expect(again).toEqual([303, 303, 429, 429].slice(0, LIMITS.authorizationsPerApprovedClientPerMinute + 1));
    expect(listConnections(stateFile, clock).pending.filter((p) => p.clientId === owner.clientId)).toHaveLength(LIMITS.maxPendingPerApprovedClient);
  });

  it('a flood of authorization attempts', async () => {
    const server = await start();
    const clientId = await registered(server);
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.authorizationsPerMinute + 2; i++) statuses.push((await hop(authorizeUrl(server, clientId, pkcePair().challenge))).status);
    // At most maxPending wait at once, and the per-minute limit stops the rest.
    expect(statuses.filter((s) => s === 303)).toHaveLength(LIMITS.maxPending);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMITS.authorizationsPerMinute + 2 - LIMITS.maxPending);
    expect(listConnections(stateFile, clock).pending).toHaveLength(LIMITS.maxPending);
  });
});
