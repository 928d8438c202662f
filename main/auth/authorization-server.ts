/**
 * The built-in OAuth 2.1 authorization server and resource checks, mounted by main/mcp/http.ts:
 * routes each request to its endpoint, around one state store (oauth-store.ts over
 * oauth-state.ts).
 *
 * Discovery: protected resource metadata (RFC 9728) and authorization server metadata (RFC 8414)
 * (discovery-metadata.ts). Clients: dynamic registration (RFC 7591), public clients only
 * (registration-endpoint.ts), or client ID metadata documents. Grants: authorization code with
 * PKCE S256 only, exact redirect URI match, codes used once; refresh tokens rotate, and a reused
 * one revokes its whole family (token-endpoint.ts, revocation-endpoint.ts). Tokens are opaque,
 * bound to this server's resource (RFC 8707), stored as hashes, checked at each request against
 * the state file, so a revocation works at once (access-tokens.ts). Consent: the authorize page
 * only waits; the owner decides on this computer (authorize-endpoint.ts,
 * consent-wait-endpoint.ts, owner-actions.ts).
 */
import type http from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { AccessTokens } from './access-tokens.js';
import { authorize } from './authorize-endpoint.js';
import { wait } from './consent-wait-endpoint.js';
import { discoveryDocuments, serveDocument, type DiscoveryDocuments } from './discovery-metadata.js';
import { OAUTH_PATHS, type OAuthContext, type OAuthServerOptions } from './oauth-context.js';
import { json, notAllowed, query, type Reply } from './oauth-http.js';
import { OAuthStore } from './oauth-store.js';
import { register } from './registration-endpoint.js';
import { requestLimits } from './request-limits.js';
import { revoke } from './revocation-endpoint.js';
import { token } from './token-endpoint.js';

export class OAuthServer {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  readonly store: OAuthStore;
  private readonly context: OAuthContext;
  private readonly documents: DiscoveryDocuments;
  private readonly accessTokens: AccessTokens;

  constructor(private readonly options: OAuthServerOptions) {
    const origin = new URL(options.origin).origin;
    this.issuer = origin;
    this.resource = `${origin}/mcp`;
    const now = options.now ?? Date.now;
    this.store = new OAuthStore(options.stateFile, now);
    this.context = { issuer: origin, resource: this.resource, store: this.store, now, limits: requestLimits(now), options };
    this.documents = discoveryDocuments(origin, this.resource);
    this.resourceMetadataUrl = this.documents.resourceMetadataUrl;
    this.accessTokens = new AccessTokens(this.context, this.resourceMetadataUrl);
    // Fail at start, not at the first request, when the state file is unusable.
    this.store.view();
  }

  /** True when this path belongs to the authorization server (the caller then lets it answer). */
  owns(path: string): boolean {
    return path.startsWith('/.well-known/oauth-') || path.startsWith('/oauth/');
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    let reply: Reply;
    try {
      reply = await this.route(req, path);
    } catch (error) {
      this.options.logger.warn('oauth request failed', { path, error: error instanceof Error ? error.name : typeof error });
      reply = json(500, { error: 'server_error', error_description: 'The authorization server could not complete the request.' });
    }
    res.writeHead(reply.status, { 'content-length': String(Buffer.byteLength(reply.body)), ...reply.headers });
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  }

  /** The verified token behind an Authorization header, or an OAuthError (invalid_token). */
  authenticate(authorization: string | undefined): Promise<AuthInfo> {
    return this.accessTokens.authenticate(authorization);
  }

  /** The 401 answer for an auth failure. */
  challenge(error: unknown): Promise<Reply> {
    return this.accessTokens.challenge(error);
  }

  private async route(req: http.IncomingMessage, path: string): Promise<Reply> {
    const method = req.method ?? 'GET';
    const context = this.context;
    switch (path) {
      case OAUTH_PATHS.protectedResource:
      case `${OAUTH_PATHS.protectedResource}/mcp`:
        return serveDocument(method, this.documents.resourceMetadata);
      case OAUTH_PATHS.authorizationServer:
        return serveDocument(method, this.documents.metadata);
      case OAUTH_PATHS.register:
        return method === 'POST' ? register(context, req) : notAllowed('POST');
      // GET only (not HEAD): these create and finish consent requests.
      case OAUTH_PATHS.authorize:
        return method === 'GET' ? authorize(context, query(req)) : notAllowed('GET');
      case OAUTH_PATHS.wait:
        return method === 'GET' ? wait(context, query(req)) : notAllowed('GET');
      case OAUTH_PATHS.token:
        return method === 'POST' ? token(context, req) : notAllowed('POST');
      case OAUTH_PATHS.revoke:
        return method === 'POST' ? revoke(context, req) : notAllowed('POST');
      default:
        return json(404, { error: 'not_found', error_description: `No such OAuth endpoint; discovery starts at ${OAUTH_PATHS.protectedResource}.` });
    }
  }
}
