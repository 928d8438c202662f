/**
 * The resource side over real HTTP: access tokens checked at each /mcp request (expiry, the auth
 * mode), and the "last used" time the Connected clients list shows. Time is the server's clock.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { readState } from '../../main/auth/oauth-state.js';
import { listConnections } from '../../main/auth/owner-actions.js';
import { exchange, mcpStatus, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('the whole grant, and what the state file keeps', () => {
  it('records the first use at once, so the Connected clients list shows it right after the call', async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
    const tokens = await exchange(server, grant);
    expect(listConnections(bed.stateFile, bed.clock).clients[0]!.lastUsedAt).toBeNull();
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
    // Read right after the answer, as the tray and `chatgpt-mcp oauth list` do.
    expect(listConnections(bed.stateFile, bed.clock).clients[0]!.lastUsedAt).toBe(new Date(bed.clock).toISOString());

    // Later uses are written at most once a minute: a use 10 s later leaves the time alone, one after a minute moves it.
    const first = bed.clock;
    bed.clock += 10_000;
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
    expect(readState(bed.stateFile).clients[0]!.lastUsedAt).toBe(first);
    bed.clock += LIMITS.lastUsedWriteMs;
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
    await expect.poll(() => readState(bed.stateFile).clients[0]!.lastUsedAt).toBe(bed.clock);
  });

  it('a "last used" write that fails does not fail the call', async () => {
    const server = await bed.start();
    const tokens = await exchange(server, await bed.approvedCode(server));
    // Another writer holds the state file's lock (a stuck CLI): the write waits, the call must not.
    const lock = `${bed.dir}/.oauth.json.lock`;
    fs.writeFileSync(lock, 'stuck\n');
    try {
      const started = Date.now();
      expect(await mcpStatus(server, tokens.body.access_token!)).toBe(200);
      expect(Date.now() - started).toBeLessThan(LIMITS.lastUsedWaitMs + 1_500);
    } finally {
      fs.rmSync(lock, { force: true });
    }
    // The write went on waiting: once the other writer is gone, the use is recorded and the lock released.
    await expect.poll(() => readState(bed.stateFile).clients[0]!.lastUsedAt).toBe(bed.clock);
    await expect.poll(() => fs.existsSync(lock)).toBe(false);
  });

  it('accepts both the static bearer token and OAuth tokens with "bearer+oauth", and only OAuth with "oauth"', async () => {
    const staticToken = 's'.repeat(40);
    const both = await bed.start({ auth: 'bearer+oauth' }, staticToken);
    expect(await mcpStatus(both, staticToken)).toBe(200);
    const tokens = await exchange(both, await bed.approvedCode(both));
    expect(await mcpStatus(both, tokens.body.access_token!)).toBe(200);
    expect(await mcpStatus(both, 'wrong-token-value')).toBe(401);

    const oauthOnly = await bed.start({ auth: 'oauth', token: staticToken });
    expect(await mcpStatus(oauthOnly, staticToken)).toBe(401);
  });
});

describe('refused', () => {
  it('an expired access token', async () => {
    const server = await bed.start();
    const tokens = await exchange(server, await bed.approvedCode(server));
    bed.clock += LIMITS.accessTokenMs + 1000;
    expect(await mcpStatus(server, tokens.body.access_token!)).toBe(401);
  });
});
