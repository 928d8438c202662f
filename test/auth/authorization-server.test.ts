/**
 * The authorization server over real HTTP on loopback, attacked the way a stranger who found
 * the tunnel URL (or a leaked code or token) would: the whole grant across the endpoints and
 * what the state file keeps, and refusals that span several endpoints. Time is the server's
 * injected clock. Each endpoint's own refusals are in test/auth/<endpoint>.test.ts.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { hop, pkcePair } from '../helpers/oauth.js';
import { REDIRECT, authorizeUrl, exchange, mcpStatus, registered, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('the whole grant, and what the state file keeps', () => {
  it('issues tokens that work on /mcp, and stores only hashes in an owner-only file', async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
    const tokens = await exchange(server, grant);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: LIMITS.accessTokenMs / 1000, scope: 'mcp' });
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);

    const text = fs.readFileSync(bed.stateFile, 'utf8');
    for (const secret of [tokens.body.access_token!, tokens.body.refresh_token!, grant.code]) expect(text).not.toContain(secret);
    expect(fs.statSync(bed.stateFile).mode & 0o777).toBe(0o600);
  });
});

describe('refused', () => {
  it('a redirect URI that differs by one character, at the authorize page and at the token endpoint', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    const page = await hop(authorizeUrl(server, clientId, challenge, { redirect_uri: REDIRECT + 'x' }));
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toMatch(/did not register/);

    const grant = await bed.approvedCode(server);
    const swapped = await exchange(server, grant, { redirect_uri: REDIRECT.replace('redirect', 'redirecT') });
    expect(swapped).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a token for another resource: at authorize, at the token endpoint, and a token of another server on this one', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    const page = await hop(authorizeUrl(server, clientId, challenge, { resource: 'https://other.example/mcp' }));
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('(invalid_target)');

    const grant = await bed.approvedCode(server);
    expect((await exchange(server, grant, { resource: 'https://other.example/mcp' })).body.error).toBe('invalid_target');

    // A second server (another port, so another resource) sharing the same state file.
    const other = await bed.start();
    const theirs = await exchange(other, await bed.approvedCode(other));
    expect(await mcpStatus(other, theirs.body.access_token!)).toBe(200);
    expect(await mcpStatus(server, theirs.body.access_token!)).toBe(401);
  });
});

describe('bearer+oauth', () => {
  const HINT = 'get it on the computer running the server: "chatgpt-mcp token show" prints it';

  it("a refused call's challenge also says how to get the static token; with OAuth only, it does not", async () => {
    const both = await bed.start({ auth: 'bearer+oauth' }, 'static-token-0123456789abcdef0123', HINT);
    const refused = await fetch(both.url, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    const body = (await refused.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_token');
    expect(body.error_description).toContain(`Or send "Authorization: Bearer <token>" with this server's token; ${HINT}.`);

    const oauthOnly = await bed.start({}, undefined, HINT);
    const plain = await fetch(oauthOnly.url, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' }, body: '{}' });
    expect(plain.status).toBe(401);
    expect(await plain.text()).not.toContain('token show');
  });
});
