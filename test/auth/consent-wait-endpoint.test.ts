/** The waiting page over real HTTP: it only waits; the app hears access_denied when the owner denies (or, for an app approved before, when nobody approves in time). */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { readState } from '../../main/auth/oauth-state.js';
import { approve, deny } from '../../main/auth/owner-actions.js';
import { authorizeInBrowser, hop, pkcePair } from '../helpers/oauth.js';
import { authorizeUrl, origin, registered, useOAuthServers } from '../helpers/oauth-server.js';

const bed = useOAuthServers();

describe('refused', () => {
  it('an authorization nobody approved: the page only waits, then ends here, without sending the browser to an address no owner saw', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const first = await hop(authorizeUrl(server, clientId, pkcePair().challenge));
    expect(first.status).toBe(303);
    const waitUrl = new URL(first.headers.get('location')!, origin(server));
    const page = await hop(waitUrl);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(html).not.toMatch(/<script/i);
    const shownCode = /aria-label="Approval code">([A-Z0-9-]+)</.exec(html)![1]!;
    // Reloads before the deadline are plain waiting pages; then time runs out.
    expect((await hop(waitUrl)).status).toBe(200);
    bed.clock += LIMITS.consentMs + 1;
    const end = await hop(waitUrl);
    expect(end.status).toBe(400);
    expect(end.headers.get('location')).toBeNull();
    expect(await end.text()).toContain('Nobody approved this request on the computer in time');
    expect(readState(bed.stateFile).codes).toHaveLength(0);
    expect(readState(bed.stateFile).pending).toHaveLength(0);
    await expect(approve(bed.stateFile, shownCode, () => bed.clock)).rejects.toThrow(/no authorization request with code/);
  });

  it('an app the owner approved before hears access_denied when nobody approves its new request in time', async () => {
    const server = await bed.start();
    const grant = await bed.approvedCode(server);
    let reloads = 0;
    const outcome = await authorizeInBrowser(authorizeUrl(server, grant.clientId, pkcePair().challenge), async () => {}, {
      maxReloads: 10,
      betweenReloads: async () => {
        if (++reloads === 2) bed.clock += LIMITS.consentMs + 1;
      },
    });
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
    expect(outcome.redirect.searchParams.get('code')).toBeNull();
  });

  it('an authorization the owner denied', async () => {
    const server = await bed.start();
    const clientId = await registered(server);
    const outcome = await authorizeInBrowser(authorizeUrl(server, clientId, pkcePair().challenge), (code) => deny(bed.stateFile, code).then(() => undefined));
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
  });
});
