/** Dynamic client registration over real HTTP: what is refused, the rate limit, and the bound on stored clients. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { readState } from '../../main/auth/oauth-state.js';
import { REDIRECT, register, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('refused', () => {
  it('a flood of registrations: rate-limited per minute, and the number of clients is bounded', async () => {
    const server = await bed.start();
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.registrationsPerMinute + 5; i++) statuses.push((await register(server)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMITS.registrationsPerMinute);
    const limited = await register(server);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Minute after minute, the total stays bounded: unapproved clients make room, oldest first.
    for (let minute = 0; readState(bed.stateFile).clients.length < LIMITS.maxClients; minute++) {
      bed.clock += 60_000;
      for (let i = 0; i < LIMITS.registrationsPerMinute; i++) expect((await register(server)).status).toBe(201);
    }
    const oldest = readState(bed.stateFile).clients[0]!.id;
    bed.clock += 60_000;
    expect((await register(server)).status).toBe(201);
    const after = readState(bed.stateFile).clients;
    expect(after).toHaveLength(LIMITS.maxClients);
    expect(after.map((c) => c.id)).not.toContain(oldest);
  });

  it('bad registrations: no redirect URI, http to another host (127.evil.example too), a fragment, javascript:', async () => {
    const server = await bed.start();
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
    expect(readState(bed.stateFile).clients).toHaveLength(0);
  });
});
