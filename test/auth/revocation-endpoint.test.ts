/** Token revocation over real HTTP: junk shares the token limit, a known token is still revoked during a flood. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { exchange, mcpStatus, origin, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('refused', () => {
  it('revocation: junk shares the limit, a known token is still revoked during a flood', async () => {
    const server = await bed.start();
    const issued = await exchange(server, await bed.approvedCode(server));
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
});
