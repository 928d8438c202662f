/**
 * The tray's OAuth panel against a real server on loopback and its state file: a stranger who
 * floods the public URL with authorization requests alerts the owner once per
 * LIMITS.consentAlertMs (the tray's notification and window-to-front follow shouldAlert),
 * while the panel's list still shows every waiting request with its own code.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthPanel } from '../../main/tray/oauth-panel.js';
import type { ConsentRequest } from '../../main/auth/connections.js';
import { LIMITS } from '../../main/auth/oauth-limits.js';
import { oauthStatePath } from '../../main/auth/oauth-state.js';
import { hop, pkcePair } from '../helpers/oauth.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const REDIRECT = 'https://chatgpt.com/connector_platform_oauth_redirect';

let dir: string;
let clock: number;
let server: TestHttpServer;
let panel: OAuthPanel;
const alerts: ConsentRequest[] = [];
const requests: ConsentRequest[] = [];

beforeEach(async () => {
  dir = makeTempDir('oauth-panel-');
  clock = Date.now();
  const stateFile = oauthStatePath(dir);
  panel = new OAuthPanel(stateFile, () => clock);
  alerts.length = 0;
  requests.length = 0;
  // What app-main's askOwner does: every request goes to the window, an alert only when shouldAlert says so.
  const askOwner = (request: ConsentRequest) => {
    requests.push(request);
    if (panel.shouldAlert()) alerts.push(request);
  };
  server = await startTestServer({ server: { auth: 'oauth' } }, { oauth: { stateFile, now: () => clock, onConsentRequest: askOwner } });
});
afterEach(async () => {
  await server?.close();
  removeDir(dir);
});

async function askToConnect(name: string): Promise<number> {
  const origin = new URL(server.url).origin;
  const registered = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  const url = new URL(`${origin}/oauth/authorize`);
  const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return (await hop(url)).status;
}

describe('OAuthPanel alerts', () => {
  it('a flood of consent requests alerts the owner once per interval; the list shows every waiting one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.maxPending; i++) statuses.push(await askToConnect(`Stranger ${i}`));
    expect(statuses).toEqual(Array(LIMITS.maxPending).fill(303));
    expect(requests).toHaveLength(LIMITS.maxPending);
    expect(alerts.map((a) => a.clientName)).toEqual(['Stranger 0']);
    expect(
      panel
        .list()
        .pending.map((p) => p.code)
        .sort(),
    ).toEqual(requests.map((r) => r.code).sort());

    // Past the cap of waiting requests: refused with a page that says why; no new alert.
    expect(await askToConnect('One more')).toBe(429);
    expect(alerts).toHaveLength(1);

    // Once the interval is over, the next request alerts again.
    clock += LIMITS.consentAlertMs;
    await panel.deny(requests[0]!.code);
    expect(await askToConnect('Later')).toBe(303);
    expect(alerts.map((a) => a.clientName)).toEqual(['Stranger 0', 'Later']);
  });

  it('alerts at most once per interval, whatever the clock does in between', () => {
    const alone = new OAuthPanel(oauthStatePath(dir), () => clock);
    expect(alone.shouldAlert()).toBe(true);
    clock += LIMITS.consentAlertMs - 1;
    expect(alone.shouldAlert()).toBe(false);
    clock += 1;
    expect(alone.shouldAlert()).toBe(true);
    expect(alone.shouldAlert()).toBe(false);
  });
});
