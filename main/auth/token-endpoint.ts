/**
 * POST /oauth/token: the authorization code grant (PKCE S256, exact redirect URI, codes used
 * once) and the refresh grant (tokens rotate; a reused refresh token revokes its whole family).
 * Every refusal is an RFC 6749 error body; a refusal still writes what it changed before (a
 * burnt code, a revoked family).
 */
import type http from 'node:http';
import { issueTokens, revokeFamily, sameResource, type TokenResponse } from './oauth-grants.js';
import type { OAuthContext } from './oauth-context.js';
import { basicClientId, bodyProblem, json, readBody, single, type Reply } from './oauth-http.js';
import type { OAuthState } from './oauth-state.js';
import { chargeTokenRequest, junkRefused } from './request-limits.js';
import { hashSecret, pkceMatches } from './secrets.js';

class TokenError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export async function token(context: OAuthContext, req: http.IncomingMessage): Promise<Reply> {
  const form = await readForm(context, req);
  if (!(form instanceof URLSearchParams)) return form;
  const clientId = single(form, 'client_id') ?? basicClientId(req.headers.authorization);
  const refused = chargeTokenRequest(context.limits, clientId !== undefined && presentsGrant(context, form, clientId) ? clientId : null);
  if (refused) return refused;
  try {
    if (!clientId) throw new TokenError('invalid_client', 'client_id is required (this server has public clients only).', 401);
    const grant = single(form, 'grant_type');
    const tokens =
      grant === 'authorization_code'
        ? await exchangeCode(context, form, clientId)
        : grant === 'refresh_token'
          ? await refresh(context, form, clientId)
          : (() => {
              throw new TokenError('unsupported_grant_type', 'Supported grants: authorization_code, refresh_token.');
            })();
    return json(200, tokens, { 'cache-control': 'no-store', pragma: 'no-cache' });
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    context.options.logger.warn('oauth token request refused', { error: error.code, reason: error.message.slice(0, 120) });
    return json(error.status, { error: error.code, error_description: error.message }, { 'cache-control': 'no-store' });
  }
}

/**
 * True when the form presents a grant this server issued to this client: a refresh token
 * (also an already used one, so its replay still revokes its family), or a code with the
 * PKCE verifier that matches it. Each such grant is consumed by its first full check (used,
 * burnt or revoked), so it cannot buy more than one pass.
 */
function presentsGrant(context: OAuthContext, form: URLSearchParams, clientId: string): boolean {
  const view = context.store.view();
  const now = context.now();
  const grant = single(form, 'grant_type');
  if (grant === 'refresh_token') {
    const token = view.tokens.get(hashSecret(single(form, 'refresh_token') ?? ''));
    return token?.kind === 'refresh' && token.clientId === clientId && token.expiresAt > now && !!view.clients.get(clientId)?.approvedAt;
  }
  if (grant === 'authorization_code') {
    const hash = hashSecret(single(form, 'code') ?? '');
    const code = view.state.codes.find((c) => c.hash === hash);
    return !!code && code.clientId === clientId && code.expiresAt > now && pkceMatches(single(form, 'code_verifier') ?? '', code.codeChallenge);
  }
  return false;
}

function exchangeCode(context: OAuthContext, form: URLSearchParams, clientId: string): Promise<TokenResponse> {
  const code = single(form, 'code') ?? '';
  const verifier = single(form, 'code_verifier') ?? '';
  const redirectUri = single(form, 'redirect_uri');
  const resource = single(form, 'resource');
  const now = context.now();
  return updateOrRefuse(context, (state) => {
    const issued = state.codes.find((c) => c.hash === hashSecret(code));
    if (!issued || issued.expiresAt <= now) throw new TokenError('invalid_grant', 'The authorization code is unknown or expired.');
    if (issued.usedAt !== null) {
      // RFC 6749 §4.1.2: a code used twice revokes what it was exchanged for.
      revokeFamily(state, issued.family);
      throw new TokenError('invalid_grant', 'The authorization code was already used; the tokens issued for it are revoked.');
    }
    // Any failed attempt burns the code, so it cannot be tried again.
    issued.usedAt = now;
    if (issued.clientId !== clientId) throw new TokenError('invalid_grant', 'The authorization code was issued to another client.');
    if (redirectUri === undefined || redirectUri !== issued.redirectUri) {
      throw new TokenError('invalid_grant', 'redirect_uri must be exactly the one used in the authorization request.');
    }
    if (!pkceMatches(verifier, issued.codeChallenge)) throw new TokenError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
    if (resource !== undefined && !sameResource(resource, issued.resource)) {
      throw new TokenError('invalid_target', `Tokens from this server are only for the resource ${issued.resource}.`);
    }
    return issueTokens(state, { clientId, family: issued.family, resource: issued.resource, scope: issued.scope }, now);
  });
}

function refresh(context: OAuthContext, form: URLSearchParams, clientId: string): Promise<TokenResponse> {
  const presented = single(form, 'refresh_token') ?? '';
  const resource = single(form, 'resource');
  const scope = single(form, 'scope');
  const now = context.now();
  return updateOrRefuse(context, (state) => {
    const token = state.tokens.find((t) => t.hash === hashSecret(presented) && t.kind === 'refresh');
    if (!token || token.expiresAt <= now) throw new TokenError('invalid_grant', 'The refresh token is unknown, expired or revoked.');
    if (token.clientId !== clientId) throw new TokenError('invalid_grant', 'The refresh token was issued to another client.');
    if (token.usedAt !== null) {
      // Rotation: a refresh token works once. A second use means it leaked; end the whole chain.
      revokeFamily(state, token.family);
      throw new TokenError('invalid_grant', 'The refresh token was already used; every token of this authorization is revoked. Connect again.');
    }
    if (resource !== undefined && !sameResource(resource, token.resource)) {
      throw new TokenError('invalid_target', `Tokens from this server are only for the resource ${token.resource}.`);
    }
    const granted = token.scope.split(' ');
    if (scope !== undefined && scope.split(' ').some((s) => s && !granted.includes(s))) throw new TokenError('invalid_scope', 'A refresh cannot add scopes.');
    token.usedAt = now;
    return issueTokens(state, { clientId, family: token.family, resource: token.resource, scope: scope?.trim() || token.scope }, now);
  });
}

/** Like store.update, but a refusal still writes what was changed before it (a burnt code, a revoked family). */
async function updateOrRefuse<T>(context: OAuthContext, change: (state: OAuthState) => T): Promise<T> {
  const result = await context.store.update((state) => {
    try {
      return { ok: true as const, value: change(state) };
    } catch (error) {
      if (error instanceof TokenError) return { ok: false as const, error };
      throw error;
    }
  });
  if (!result.ok) throw result.error;
  return result.value;
}

/** The form of a token or revocation request, or the refusal of an unreadable one (counted as junk). */
export async function readForm(context: OAuthContext, req: http.IncomingMessage): Promise<URLSearchParams | Reply> {
  try {
    return new URLSearchParams(await readBody(req));
  } catch (error) {
    if (!context.limits.token.take()) return junkRefused(context.limits);
    return json(400, { error: 'invalid_request', error_description: bodyProblem(error, 'an application/x-www-form-urlencoded body') });
  }
}
