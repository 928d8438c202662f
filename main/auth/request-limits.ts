/**
 * The rate limits of the endpoints a stranger reaches through the tunnel, and which budget a
 * request counts against: a shared one for anything that can only fail, and a client's own one
 * once the request proves it comes from that client (a code or token issued to it), so junk from
 * strangers cannot use it up.
 */
import { limitText, tooMany, type Reply } from './oauth-http.js';
import { LIMITS } from './oauth-limits.js';
import { KeyedRateLimiter, RateLimiter } from './rate-limit.js';

export interface RequestLimits {
  register: RateLimiter;
  authorize: RateLimiter;
  /** Authorizations for a client the owner already approved (reconnecting): its own budget. */
  authorizePerClient: KeyedRateLimiter;
  /** Token and revocation requests that present nothing this server issued: junk, shared by all callers. */
  token: RateLimiter;
  /** Token and revocation requests that present a code or token issued to that client: its own budget. */
  tokenPerClient: KeyedRateLimiter;
  document: RateLimiter;
}

export function requestLimits(now: () => number): RequestLimits {
  return {
    register: new RateLimiter(LIMITS.registrationsPerMinute, 60_000, now),
    authorize: new RateLimiter(LIMITS.authorizationsPerMinute, 60_000, now),
    authorizePerClient: new KeyedRateLimiter(LIMITS.authorizationsPerApprovedClientPerMinute, 60_000, now),
    token: new RateLimiter(LIMITS.tokenRequestsPerMinute, 60_000, now),
    tokenPerClient: new KeyedRateLimiter(LIMITS.tokenRequestsPerClientPerMinute, 60_000, now),
    document: new RateLimiter(LIMITS.registrationsPerMinute, 60_000, now),
  };
}

/**
 * Which budget a token or revocation request is counted against. `owner` is the client whose
 * code or token the request presents (found by hash in the state already read: no lock, no
 * write): that client's own budget, so junk from strangers through the same tunnel cannot
 * stop it refreshing or finishing its authorization. Anything else can only fail; it shares
 * one budget for everyone, and past it is refused before any work is done.
 */
export function chargeTokenRequest(limits: RequestLimits, owner: string | null): Reply | null {
  if (owner === null) return limits.token.take() ? null : junkRefused(limits);
  const { ok, limiter } = limits.tokenPerClient.take(owner);
  if (ok) return null;
  return tooMany(limiter, limitText(limiter, 'Too many token requests', 'for this client'));
}

export function junkRefused(limits: RequestLimits): Reply {
  const refused = limitText(limits.token, 'Too many token requests without a valid code or refresh token', 'all callers together');
  return tooMany(limits.token, `${refused} Requests with a valid code or refresh token are not held back by this limit.`);
}
