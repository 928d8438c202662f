/**
 * What the endpoints of the authorization server share: where each one answers, who the server
 * is (issuer, resource), the state store, the clock, the log, the rate limits and the owner's
 * hooks. authorization-server.ts builds it once and routes each request to an endpoint with it.
 */
import type { Logger } from '../log.js';
import type { MetadataFetchOptions } from './client-metadata-document.js';
import type { ConsentRequest } from './connections.js';
import type { OAuthStore } from './oauth-store.js';
import type { RequestLimits } from './request-limits.js';

export const OAUTH_PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  register: '/oauth/register',
  authorize: '/oauth/authorize',
  wait: '/oauth/authorize/wait',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
} as const;

export interface OAuthServerOptions {
  stateFile: string;
  /** The public origin (server.publicUrl, or the loopback URL): the issuer; the resource is <origin>/mcp. */
  origin: string;
  logger: Logger;
  now?: () => number;
  /** Told when a request starts waiting for the owner (the tray's notification). */
  onConsentRequest?: (request: ConsentRequest) => void;
  /** How client ID metadata documents are fetched (tests trust a local CA and loopback). */
  metadataFetch?: MetadataFetchOptions;
}

export interface OAuthContext {
  /** The origin: issuer of codes and tokens. */
  readonly issuer: string;
  /** `<origin>/mcp`: the only resource tokens are for. */
  readonly resource: string;
  readonly store: OAuthStore;
  readonly now: () => number;
  readonly limits: RequestLimits;
  readonly options: OAuthServerOptions;
}
