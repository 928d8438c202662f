/** The waiting page over real HTTP: it only waits; the app hears access_denied when nobody approves or the owner denies. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { readState } from '../../main/auth/oauth-state.js';
import { approve, deny } from '../../main/auth/owner-actions.js';
import { authorizeInBrowser, pkcePair } from '../helpers/oauth.js';
import { authorizeUrl, registered, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('refused', () => {
  it('an authorization nobody approved: the page only waits, then the app hears access_denied', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const { challenge } = pkcePair();
    let reloads = 0;
    const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, challenge), async () => {}, {
      maxReloads: 10,
      betweenReloads: async () => {
        // Each reload before the deadline is a plain waiting page; then time runs out.
        reloads++;
        if (reloads === 3) bed.clock += LIMITS.consentMs + 1;
      },
    });
    expect(reloads).toBe(3);
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
    expect(outcome.redirect.searchParams.get('code')).toBeNull();
    expect(outcome.page.csp).toMatch(/default-src 'none'/);
    expect(outcome.page.csp).toMatch(/frame-ancestors 'none'/);
    expect(outcome.page.html).not.toMatch(/<script/i);
    expect(readState(bed.stateFile).codes).toHaveLength(0);
    await expect(approve(bed.stateFile, outcome.shownCode, () => bed.clock)).rejects.toThrow(/no authorization request with code/);
  });

  it('an authorization the owner denied', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, pkcePair().challenge), (code) => deny(bed.stateFile, code).then(() => undefined));
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
  });
});
