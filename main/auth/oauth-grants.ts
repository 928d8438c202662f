/**
 * What the state records when access is granted or withdrawn: an authorization code for an
 * approved request, an access and refresh token pair, and the revocation of a whole family
 * (everything issued from one authorization). Tokens are returned once and stored as hashes.
 */
import { randomBytes } from 'node:crypto';
import { LIMITS } from './oauth-limits.js';
import type { OAuthState, PendingAuthorization } from './oauth-state.js';
import { hashSecret, newSecret } from './secrets.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export function issueCode(state: OAuthState, request: PendingAuthorization, hash: string, now: number): void {
  state.codes.push({
    hash,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    scope: request.scope,
    family: randomBytes(12).toString('base64url'),
    expiresAt: now + LIMITS.codeMs,
    usedAt: null,
  });
}

export function issueTokens(state: OAuthState, grant: { clientId: string; family: string; resource: string; scope: string }, now: number): TokenResponse {
  const access = newSecret('access');
  const refresh = newSecret('refresh');
  const base = { clientId: grant.clientId, family: grant.family, resource: grant.resource, scope: grant.scope, usedAt: null };
  state.tokens.push({ ...base, hash: hashSecret(access), kind: 'access', expiresAt: now + LIMITS.accessTokenMs });
  state.tokens.push({ ...base, hash: hashSecret(refresh), kind: 'refresh', expiresAt: now + LIMITS.refreshTokenMs });
  return { access_token: access, token_type: 'Bearer', expires_in: Math.floor(LIMITS.accessTokenMs / 1000), refresh_token: refresh, scope: grant.scope };
}

export function revokeFamily(state: OAuthState, family: string): void {
  state.tokens = state.tokens.filter((t) => t.family !== family);
}

/** RFC 8707 resource values compared as URLs without a fragment or one trailing slash. */
export function sameResource(a: string, b: string): boolean {
  const canonical = (value: string) => {
    try {
      const url = new URL(value);
      url.hash = '';
      return url.href.replace(/\/$/, '');
    } catch {
      return null;
    }
  };
  const left = canonical(a);
  return left !== null && left === canonical(b);
}
