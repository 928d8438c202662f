/** Discovery over real HTTP: the 401 of /mcp, both metadata documents, and no OAuth routes without OAuth. */
import { describe, expect, it } from 'vitest';
import { origin, useOAuthServers } from '../helpers/oauth-server.js';
import { startTestServer } from '../helpers/servers.js';

const bed = useOAuthServers();

describe('discovery', () => {
  it('answers /mcp without a token with 401 and a resource_metadata pointer, and serves both metadata documents', async () => {
    const server = await bed.start();
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
    const server = await bed.start({ publicUrl: 'https://calm-river.trycloudflare.com' });
    const response = await fetch(`${origin(server)}/.well-known/oauth-protected-resource/mcp`, { headers: { host: 'calm-river.trycloudflare.com' } });
    expect(await response.json()).toMatchObject({
      resource: 'https://calm-river.trycloudflare.com/mcp',
      authorization_servers: ['https://calm-river.trycloudflare.com'],
    });
  });

  it('has no OAuth routes when server.auth is "bearer"', async () => {
    const server = await startTestServer({ server: { token: 'a'.repeat(32) } });
    bed.track(server);
    expect((await fetch(`${origin(server)}/.well-known/oauth-authorization-server`)).status).toBe(404);
  });
});
