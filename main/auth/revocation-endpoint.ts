/**
 * POST /oauth/revoke (RFC 7009): always 200; a known token, presented by its own client or by
 * nobody in particular, ends its whole authorization.
 */
import type http from 'node:http';
import { revokeFamily } from './oauth-grants.js';
import type { OAuthContext } from './oauth-context.js';
import { basicClientId, single, type Reply } from './oauth-http.js';
import { chargeTokenRequest } from './request-limits.js';
import { hashSecret } from './secrets.js';
import { readForm } from './token-endpoint.js';

export async function revoke(context: OAuthContext, req: http.IncomingMessage): Promise<Reply> {
  const form = await readForm(context, req);
  if (!(form instanceof URLSearchParams)) return form;
  const hash = hashSecret(single(form, 'token') ?? '');
  const clientId = single(form, 'client_id') ?? basicClientId(req.headers.authorization);
  const known = context.store.view().tokens.get(hash);
  const refused = chargeTokenRequest(context.limits, known && (clientId === undefined || known.clientId === clientId) ? known.clientId : null);
  if (refused) return refused;
  await context.store.update((state) => {
    const token = state.tokens.find((t) => t.hash === hash);
    if (token && (clientId === undefined || token.clientId === clientId)) revokeFamily(state, token.family);
  });
  return { status: 200, headers: { 'cache-control': 'no-store' }, body: '' };
}
