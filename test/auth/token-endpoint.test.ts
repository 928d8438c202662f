/**
 * The token endpoint over real HTTP: codes used once and burnt by a failed attempt, refresh
 * tokens that rotate and revoke their family on reuse, and the budgets that keep junk from
 * locking out a client with a valid grant. Time is the server's injected clock.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { pkcePair } from '../helpers/oauth.js';
import { REDIRECT, exchange, mcpStatus, origin, token, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('refused', () => {
  it('a wrong PKCE verifier, and the code is burnt by the attempt', async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
    const wrong = await exchange(server, { ...grant, verifier: pkcePair().verifier });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.body.error_description).toMatch(/code_verifier/);
    expect((await exchange(server, grant)).body.error).toBe('invalid_grant');
  });

  it('a replayed code, and the tokens the first exchange got are revoked', async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
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
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
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

  it('a Basic client credential with a malformed %-escape is refused as no client, not a server error', async () => {
    const server = await bed.start();
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

  it('a flood of junk token requests: refused past the limit, while a valid refresh and a valid code exchange still succeed', async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
    const issued = await exchange(server, grant);
    expect(issued.status).toBe(200);
    const second = await bed.approvedCode(server);

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
    bed.clock += 60_000;
    expect((await token(server, junk(3))).status).toBe(400);
  });

  it("a client's own budget: requests with its valid refresh token are limited per client, not without limit", async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
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
    bed.clock += 60_000;
    expect((await token(server, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token!, client_id: grant.clientId })).status).toBe(200);
  });
});
