/**
 * The authorize endpoint over real HTTP: requests refused before anything waits for the owner,
 * and the limits on waiting requests (a client the owner approved before keeps its own room).
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { readState } from '../../main/auth/oauth-state.js';
import { listConnections } from '../../main/auth/owner-actions.js';
import { authorizeInBrowser, hop, ownerApproves, pkcePair } from '../helpers/oauth.js';
import { authorizeUrl, exchange, registered, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('refused', () => {
  it('PKCE missing or "plain", an unknown client, an unknown scope', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    // Answered here, never by a redirect to the client's address (an open redirect for anyone who registers a client).
    for (const [extra, error] of [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ scope: 'admin' }, 'invalid_scope'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ] as Array<[Record<string, string>, string]>) {
      const page = await hop(authorizeUrl(server, clientId, challenge, extra));
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(await page.text()).toContain(`(${error})`);
    }
    const unknown = await hop(authorizeUrl(server, 'cmcp_client_nobody', challenge));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    expect(listConnections(bed.stateFile).pending).toHaveLength(0);
  });

  it('a HEAD request, a missing redirect_uri, an oversized state: no request is created', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const url = authorizeUrl(server, clientId, pkcePair().challenge);
    expect((await fetch(url, { method: 'HEAD', redirect: 'manual' })).status).toBe(405);
    const noRedirect = new URL(url);
    noRedirect.searchParams.delete('redirect_uri');
    expect((await hop(noRedirect)).status).toBe(400);
    const longState = new URL(url);
    longState.searchParams.set('state', 'x'.repeat(1025));
    const refused = await hop(longState);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('state is longer than 1024 characters. (invalid_request)');
    expect(readState(bed.stateFile).pending).toHaveLength(0);
  });

  it("a flood of authorization attempts for strangers' clients does not crowd out a client the owner approved before", async () => {
    const server = await bed.start();
    const owner = await bed.approvedCode(server);
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
    const outcome = await authorizeInBrowser(authorizeUrl(server, owner.clientId, challenge), ownerApproves(bed.stateFile));
    const code = outcome.redirect.searchParams.get('code')!;
    expect((await exchange(server, { clientId: owner.clientId, code, verifier })).status).toBe(200);

    // Its own budget is bounded too: a leaked client id buys a few waiting requests, not a flood.
    const again: number[] = [];
    for (let i = 0; i < LIMITS.authorizationsPerApprovedClientPerMinute + 1; i++)
      again.push((await hop(authorizeUrl(server, owner.clientId, pkcePair().challenge))).status);
    // One of this minute's budget went to the reconnection above; of the rest, only maxPendingPerApprovedClient may wait.
    expect(again).toEqual([303, 303, 429, 429].slice(0, LIMITS.authorizationsPerApprovedClientPerMinute + 1));
    expect(listConnections(bed.stateFile, bed.clock).pending.filter((p) => p.clientId === owner.clientId)).toHaveLength(LIMITS.maxPendingPerApprovedClient);
  });

  it('a flood of authorization attempts', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.authorizationsPerMinute + 2; i++) statuses.push((await hop(authorizeUrl(server, clientId, pkcePair().challenge))).status);
    // At most maxPending wait at once, and the per-minute limit stops the rest.
    expect(statuses.filter((s) => s === 303)).toHaveLength(LIMITS.maxPending);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMITS.authorizationsPerMinute + 2 - LIMITS.maxPending);
    expect(listConnections(bed.stateFile, bed.clock).pending).toHaveLength(LIMITS.maxPending);
  });
});
