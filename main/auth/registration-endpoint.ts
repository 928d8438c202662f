/**
 * POST /oauth/register: dynamic client registration (RFC 7591), public clients only, within
 * the bound on stored clients (unapproved ones make room, oldest first; approved ones stay).
 */
import type http from 'node:http';
import { displayName, registrationSchema } from './client-registration.js';
import type { OAuthContext } from './oauth-context.js';
import { bodyProblem, json, limitText, readBody, tooMany, type Reply } from './oauth-http.js';
import { LIMITS, SUPPORTED_SCOPES } from './oauth-limits.js';
import type { OAuthClient, OAuthState } from './oauth-state.js';
import { hostOf } from './owner-actions.js';
import { newClientId } from './secrets.js';

export async function register(context: OAuthContext, req: http.IncomingMessage): Promise<Reply> {
  const { limits, store } = context;
  if (!limits.register.take()) {
    return tooMany(limits.register, limitText(limits.register, "Too many app registrations through this server's address", 'all callers together'));
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (error) {
    return json(400, { error: 'invalid_client_metadata', error_description: bodyProblem(error, 'a JSON client metadata document (RFC 7591)') });
  }
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const redirect = issue.path[0] === 'redirect_uris';
    return json(400, {
      error: redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      error_description: `${issue.path.join('.') || 'body'}: ${issue.message}`,
    });
  }
  const request = parsed.data;
  const now = context.now();
  const client: OAuthClient = {
    id: newClientId(),
    name: displayName(request.client_name, hostOf(request.redirect_uris[0]!)),
    redirectUris: request.redirect_uris,
    source: 'registration',
    registeredAt: now,
    approvedAt: null,
    lastUsedAt: null,
  };
  const stored = await store.update((state) => admitClient(state, client));
  if (!stored) {
    return json(400, {
      error: 'invalid_client_metadata',
      error_description: `This server already has ${LIMITS.maxClients} approved clients; its owner must revoke one first.`,
    });
  }
  context.options.logger.info('oauth client registered', { client: client.id, name: client.name });
  return json(
    201,
    {
      client_id: client.id,
      client_id_issued_at: Math.floor(now / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: SUPPORTED_SCOPES.join(' '),
    },
    { 'cache-control': 'no-store' },
  );
}

/** Adds a client within the bound: room is made from clients nobody approved, oldest first; approved ones stay. */
export function admitClient(state: OAuthState, client: OAuthClient): boolean {
  if (state.clients.length >= LIMITS.maxClients) {
    const waitingFor = new Set(state.pending.map((p) => p.clientId));
    const evictable = state.clients.filter((c) => c.approvedAt === null && !waitingFor.has(c.id)).sort((a, b) => a.registeredAt - b.registeredAt);
    const victim = evictable[0];
    if (!victim) return false;
    state.clients = state.clients.filter((c) => c.id !== victim.id);
  }
  state.clients.push(client);
  return true;
}
