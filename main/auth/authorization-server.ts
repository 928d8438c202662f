/**
 * The built-in OAuth 2.1 authorization server and resource checks, mounted by main/mcp/http.ts.
 *
 * Discovery: protected resource metadata (RFC 9728, built with the MCP SDK's
 * buildOAuthProtectedResourceMetadata) and authorization server metadata (RFC 8414).
 * Clients: dynamic registration (RFC 7591), public clients only. Grants: authorization code
 * with PKCE S256 only, exact redirect URI match, codes used once; refresh tokens rotate, and a
 * reused one revokes its whole family. Tokens are opaque, bound to this server's resource
 * (RFC 8707), stored as hashes, checked at each request against the state file, so a
 * revocation works at once. Consent: the authorize page only waits; the owner decides on
 * this computer (owner-actions.ts).
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import { ClientDocumentError, fetchClientDocument, isDocumentClientId, type MetadataFetchOptions } from './client-metadata-document.js';
import { displayName, registrationSchema } from './client-registration.js';
import type { ConsentRequest } from './connections.js';
import { messagePage, PAGE_HEADERS, waitingPage } from './consent-page.js';
import { LIMITS, SUPPORTED_SCOPES } from './oauth-limits.js';
import type { OAuthClient, OAuthState, PendingAuthorization } from './oauth-state.js';
import { OAuthStore } from './oauth-store.js';
import { hostOf, snapshot } from './owner-actions.js';
import { KeyedRateLimiter, RateLimiter } from './rate-limit.js';
import { hashSecret, newClientId, newSecret, newUserCode, pkceMatches, S256_CHALLENGE } from './secrets.js';

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

/** A metadata-document client is read again after a day, so its redirect URIs follow the document. */
const DOCUMENT_REFRESH_MS = 24 * 60 * 60_000;

type Reply = { status: number; headers: Record<string, string>; body: string };

class TokenError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export class OAuthServer {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  readonly store: OAuthStore;
  private readonly now: () => number;
  private readonly limits: {
    register: RateLimiter;
    authorize: RateLimiter;
    /** Authorizations for a client the owner already approved (reconnecting): its own budget. */
    authorizePerClient: KeyedRateLimiter;
    /** Token and revocation requests that present nothing this server issued: junk, shared by all callers. */
    token: RateLimiter;
    /** Token and revocation requests that present a code or token issued to that client: its own budget. */
    tokenPerClient: KeyedRateLimiter;
    document: RateLimiter;
  };
  private readonly metadata: OAuthMetadata;
  private readonly resourceMetadata: OAuthProtectedResourceMetadata;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(private readonly options: OAuthServerOptions) {
    const origin = new URL(options.origin).origin;
    this.issuer = origin;
    this.resource = `${origin}/mcp`;
    this.now = options.now ?? Date.now;
    this.store = new OAuthStore(options.stateFile, this.now);
    this.limits = {
      register: new RateLimiter(LIMITS.registrationsPerMinute, 60_000, this.now),
      authorize: new RateLimiter(LIMITS.authorizationsPerMinute, 60_000, this.now),
      authorizePerClient: new KeyedRateLimiter(LIMITS.authorizationsPerApprovedClientPerMinute, 60_000, this.now),
      token: new RateLimiter(LIMITS.tokenRequestsPerMinute, 60_000, this.now),
      tokenPerClient: new KeyedRateLimiter(LIMITS.tokenRequestsPerClientPerMinute, 60_000, this.now),
      document: new RateLimiter(LIMITS.registrationsPerMinute, 60_000, this.now),
    };
    this.metadata = {
      issuer: origin,
      authorization_endpoint: origin + OAUTH_PATHS.authorize,
      token_endpoint: origin + OAUTH_PATHS.token,
      registration_endpoint: origin + OAUTH_PATHS.register,
      revocation_endpoint: origin + OAUTH_PATHS.revoke,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...SUPPORTED_SCOPES],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      service_documentation: 'https://github.com/chatgpt-computer-mcp/chatgpt-computer-mcp/blob/main/docs/CHATGPT.md',
    } as OAuthMetadata;
    const resourceUrl = new URL(this.resource);
    // The SDK validates the issuer (https, or http on localhost) and builds the RFC 9728 document.
    this.resourceMetadata = buildOAuthProtectedResourceMetadata({
      oauthMetadata: this.metadata,
      resourceServerUrl: resourceUrl,
      scopesSupported: [...SUPPORTED_SCOPES],
      resourceName: 'ChatGPT Computer MCP',
      dangerouslyAllowInsecureIssuerUrl: resourceUrl.protocol === 'http:',
    });
    this.resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUrl);
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

  /**
   * The verified token behind an Authorization header, or an OAuthError (invalid_token).
   * The SDK's verifyBearerToken parses the header and checks expiry and audience.
   */
  authenticate(authorization: string | undefined): Promise<AuthInfo> {
    return verifyBearerToken(authorization, {
      verifier: { verifyAccessToken: (token) => this.verifyAccessToken(token) },
      resourceMetadataUrl: this.resourceMetadataUrl,
      expectedResource: new URL(this.resource),
    });
  }

  /** The 401 answer (WWW-Authenticate: Bearer ..., resource_metadata="...") the SDK builds for an auth failure. */
  async challenge(error: unknown): Promise<Reply> {
    const response = bearerAuthChallengeResponse(error, { resourceMetadataUrl: this.resourceMetadataUrl });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => (headers[key] = value));
    return { status: response.status, headers, body: await response.text() };
  }

  private async verifyAccessToken(token: string): Promise<AuthInfo> {
    const view = this.store.view();
    const issued = view.tokens.get(hashSecret(token));
    const now = this.now();
    if (!issued || issued.kind !== 'access') throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown or revoked access token');
    if (issued.expiresAt <= now) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token has expired; refresh it');
    const client = view.clients.get(issued.clientId);
    if (!client) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The client of this token was revoked');
    await this.noteUse(client, now);
    return {
      token,
      clientId: client.id,
      scopes: issued.scope.split(' ').filter(Boolean),
      expiresAt: Math.floor(issued.expiresAt / 1000),
      resource: new URL(issued.resource),
      extra: { clientName: client.name },
    };
  }

  /**
   * "Last used" for the Connected clients list. The first use is written before the call goes
   * on (bounded by LIMITS.lastUsedWaitMs), so the list shows it as soon as the call answered;
   * later uses at most once a minute per client, without waiting. A failed write is logged and
   * never fails the call.
   */
  private async noteUse(client: OAuthClient, now: number): Promise<void> {
    const written = this.lastUsedWritten.get(client.id) ?? client.lastUsedAt;
    if (written !== null && now - written < LIMITS.lastUsedWriteMs) return;
    this.lastUsedWritten.set(client.id, now);
    const write = this.store
      .update((state) => {
        const current = state.clients.find((c) => c.id === client.id);
        if (current) current.lastUsedAt = Math.max(current.lastUsedAt ?? 0, now);
      })
      .catch((error: unknown) => this.options.logger.warn('could not record OAuth client use', { error: (error as Error).name }));
    if (written === null) await withinMs(write, LIMITS.lastUsedWaitMs);
  }

  private async route(req: http.IncomingMessage, path: string): Promise<Reply> {
    const method = req.method ?? 'GET';
    const get = method === 'GET' || method === 'HEAD';
    switch (path) {
      case OAUTH_PATHS.protectedResource:
      case `${OAUTH_PATHS.protectedResource}/mcp`:
        return get ? json(200, this.resourceMetadata, { 'cache-control': 'max-age=300' }) : notAllowed('GET');
      case OAUTH_PATHS.authorizationServer:
        return get ? json(200, this.metadata, { 'cache-control': 'max-age=300' }) : notAllowed('GET');
      case OAUTH_PATHS.register:
        return method === 'POST' ? this.register(req) : notAllowed('POST');
      // GET only (not HEAD): these create and finish consent requests.
      case OAUTH_PATHS.authorize:
        return method === 'GET' ? this.authorize(query(req)) : notAllowed('GET');
      case OAUTH_PATHS.wait:
        return method === 'GET' ? this.wait(query(req)) : notAllowed('GET');
      case OAUTH_PATHS.token:
        return method === 'POST' ? this.token(req) : notAllowed('POST');
      case OAUTH_PATHS.revoke:
        return method === 'POST' ? this.revoke(req) : notAllowed('POST');
      default:
        return json(404, { error: 'not_found', error_description: `No such OAuth endpoint; discovery starts at ${OAUTH_PATHS.protectedResource}.` });
    }
  }

  private async register(req: http.IncomingMessage): Promise<Reply> {
    if (!this.limits.register.take()) {
      return tooMany(this.limits.register, limitText(this.limits.register, "Too many app registrations through this server's address", 'all callers together'));
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
    const now = this.now();
    const client: OAuthClient = {
      id: newClientId(),
      name: displayName(request.client_name, hostOf(request.redirect_uris[0]!)),
      redirectUris: request.redirect_uris,
      source: 'registration',
      registeredAt: now,
      approvedAt: null,
      lastUsedAt: null,
    };
    const stored = await this.store.update((state) => admitClient(state, client));
    if (!stored) {
      return json(400, {
        error: 'invalid_client_metadata',
        error_description: `This server already has ${LIMITS.maxClients} approved clients; its owner must revoke one first.`,
      });
    }
    this.options.logger.info('oauth client registered', { client: client.id, name: client.name });
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

  private async authorize(params: URLSearchParams): Promise<Reply> {
    const clientId = single(params, 'client_id');
    let client = clientId ? this.store.view().clients.get(clientId) : undefined;
    if (clientId && isDocumentClientId(clientId) && (!client || this.now() - client.registeredAt > DOCUMENT_REFRESH_MS)) {
      const loaded = await this.documentClient(clientId, client);
      if ('error' in loaded) return html(400, messagePage('App description unavailable', loaded.error));
      client = loaded.client;
    }
    if (!client) {
      return html(400, messagePage('Unknown app', 'This app is not registered with this server (or its owner revoked it). Connect again from the app.'));
    }
    // Required, and compared as exact strings: no normalisation, no prefix match.
    const redirectUri = single(params, 'redirect_uri');
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
      return html(400, messagePage('Redirect address not registered', 'The app asked to return to an address it did not register. Nothing was sent to it.'));
    }
    const rawState = single(params, 'state') ?? null;
    const state = rawState !== null && rawState.length <= 1024 ? rawState : null;
    const fail = (error: string, description: string) => redirect(redirectUri, { error, error_description: description, state, iss: this.issuer });
    if (rawState !== null && state === null) return fail('invalid_request', 'state is longer than 1024 characters.');
    if (single(params, 'response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
    const challenge = single(params, 'code_challenge');
    if (single(params, 'code_challenge_method') !== 'S256' || !challenge || !S256_CHALLENGE.test(challenge)) {
      return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
    }
    const resource = single(params, 'resource');
    if (resource !== undefined && !sameResource(resource, this.resource)) {
      return fail('invalid_target', `This server is the resource ${this.resource}.`);
    }
    const scope = single(params, 'scope');
    const scopes = (scope ?? '').split(' ').filter(Boolean);
    if (scopes.some((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s)))
      return fail('invalid_scope', `Supported scopes: ${SUPPORTED_SCOPES.join(' ')}.`);
    // A client the owner approved before (reconnecting) has its own budget and its own room
    // among the waiting requests, so strangers' requests for their own clients cannot crowd it out.
    const approvedBefore = client.approvedAt !== null;
    const budget = approvedBefore ? this.limits.authorizePerClient.take(client.id) : { ok: this.limits.authorize.take(), limiter: this.limits.authorize };
    if (!budget.ok) {
      const scope = approvedBefore ? 'for this app' : 'all callers together';
      return tooMany(budget.limiter, limitText(budget.limiter, "Too many connection attempts through this server's address", scope), true);
    }

    const handle = newSecret('consent');
    const now = this.now();
    const pending: PendingAuthorization = {
      handleHash: hashSecret(handle),
      userCode: newUserCode(),
      clientId: client.id,
      redirectUri,
      codeChallenge: challenge,
      state,
      resource: this.resource,
      scope: scopes.length ? scopes.join(' ') : SUPPORTED_SCOPES.join(' '),
      createdAt: now,
      expiresAt: now + LIMITS.consentMs,
      decision: 'pending',
      decidedAt: null,
    };
    const accepted = await this.store.update((s) => {
      const waiting = s.pending.filter((p) => p.decision === 'pending' && p.expiresAt > now);
      const approvedIds = new Set(s.clients.filter((c) => c.approvedAt !== null).map((c) => c.id));
      const full = approvedBefore
        ? waiting.filter((p) => p.clientId === client.id).length >= LIMITS.maxPendingPerApprovedClient
        : waiting.filter((p) => !approvedIds.has(p.clientId)).length >= LIMITS.maxPending;
      if (full) return null;
      s.pending.push(pending);
      return snapshot(s, now).pending.find((p) => p.code === pending.userCode) ?? null;
    });
    if (!accepted)
      return html(
        429,
        messagePage(
          'Too many requests waiting',
          approvedBefore
            ? `This app already has ${LIMITS.maxPendingPerApprovedClient} connection requests waiting for approval on the computer. Approve or deny them there, or try again in a few minutes.`
            : `${LIMITS.maxPending} connection requests from new apps are already waiting for approval on the computer (each waits up to ${LIMITS.consentMs / 60_000} minutes). Try again in a few minutes; the owner can deny the waiting ones in Connected clients or with "chatgpt-mcp oauth deny CODE".`,
        ),
      );
    this.options.logger.info('oauth authorization waiting for the owner', { client: client.id, code: pending.userCode });
    try {
      this.options.onConsentRequest?.(accepted);
    } catch {
      // a notification failure must not fail the request
    }
    return { status: 303, headers: { location: `${OAUTH_PATHS.wait}?request=${encodeURIComponent(handle)}`, 'cache-control': 'no-store' }, body: '' };
  }

  /** Reads (or reads again) a client's metadata document and keeps it as a client; an approval it had stays. */
  private async documentClient(clientId: string, known: OAuthClient | undefined): Promise<{ client: OAuthClient } | { error: string }> {
    // Reading again the document of an app this server knows counts against that app's own budget:
    // strangers' junk client_id URLs use up the shared one, and must not keep a known app out.
    const budget = known ? this.limits.authorizePerClient.take(known.id) : { ok: this.limits.document.take(), limiter: this.limits.document };
    if (!budget.ok) {
      return known
        ? { error: limitText(budget.limiter, "Too many connection attempts through this server's address", 'for this app') }
        : { error: limitText(budget.limiter, "Too many new apps through this server's address", 'all callers together') };
    }
    let doc;
    try {
      doc = await fetchClientDocument(clientId, this.options.metadataFetch);
    } catch (error) {
      if (!(error instanceof ClientDocumentError)) throw error;
      this.options.logger.warn('client metadata document refused', { reason: error.message.slice(0, 160) });
      return { error: `The app's description at its client_id URL could not be used: ${error.message}.` };
    }
    const client: OAuthClient = {
      id: clientId,
      name: displayName(doc.name, new URL(clientId).host),
      redirectUris: doc.redirectUris,
      source: 'metadata-document',
      registeredAt: this.now(),
      approvedAt: known?.approvedAt ?? null,
      lastUsedAt: known?.lastUsedAt ?? null,
    };
    const admitted = await this.store.update((state) => {
      state.clients = state.clients.filter((c) => c.id !== clientId);
      return admitClient(state, client);
    });
    return admitted ? { client } : { error: `This server already has ${LIMITS.maxClients} approved clients; its owner must revoke one first.` };
  }

  /** The waiting page: shows the code until the owner decides, then sends the browser back to the app. */
  private async wait(params: URLSearchParams): Promise<Reply> {
    const handle = single(params, 'request') ?? '';
    const handleHash = hashSecret(handle);
    const found = this.store.view().pending.get(handleHash);
    if (!found) return html(404, messagePage('Request not found', 'This connection request is unknown or finished. Start again from the app.'));
    const now = this.now();
    const back = (query: Record<string, string | null>) => redirect(found.redirectUri, { ...query, state: found.state, iss: this.issuer });
    if (found.decision === 'pending' && found.expiresAt > now) {
      const client = this.store.view().clients.get(found.clientId);
      const body = waitingPage({
        clientName: client?.name ?? 'unknown app',
        redirectHost: hostOf(found.redirectUri),
        code: found.userCode,
        expiresInSeconds: Math.round((found.expiresAt - now) / 1000),
        refresh: { seconds: LIMITS.consentPollSeconds, url: `${OAUTH_PATHS.wait}?request=${encodeURIComponent(handle)}` },
      });
      return html(200, body);
    }
    // Decided or expired: finish the request exactly once.
    const code = newSecret('code');
    const outcome = await this.store.update((state) => {
      const request = state.pending.find((p) => p.handleHash === handleHash);
      if (!request) return 'gone' as const;
      state.pending = state.pending.filter((p) => p !== request);
      if (request.decision !== 'approved') return request.decision === 'denied' ? ('denied' as const) : ('expired' as const);
      issueCode(state, request, hashSecret(code), now);
      return 'approved' as const;
    });
    if (outcome === 'gone') return html(404, messagePage('Request not found', 'This connection request is unknown or finished. Start again from the app.'));
    if (outcome === 'denied') return back({ error: 'access_denied', error_description: 'The owner of the computer denied this request.' });
    if (outcome === 'expired') return back({ error: 'access_denied', error_description: 'Nobody approved this request on the computer in time.' });
    this.options.logger.info('oauth authorization approved', { client: found.clientId });
    return back({ code });
  }

  private async token(req: http.IncomingMessage): Promise<Reply> {
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBody(req));
    } catch (error) {
      if (!this.limits.token.take()) return this.junkRefused();
      return json(400, { error: 'invalid_request', error_description: bodyProblem(error, 'an application/x-www-form-urlencoded body') });
    }
    const clientId = single(form, 'client_id') ?? basicClientId(req.headers.authorization);
    const refused = this.chargeTokenRequest(clientId !== undefined && this.presentsGrant(form, clientId) ? clientId : null);
    if (refused) return refused;
    try {
      if (!clientId) throw new TokenError('invalid_client', 'client_id is required (this server has public clients only).', 401);
      const grant = single(form, 'grant_type');
      const tokens =
        grant === 'authorization_code'
          ? await this.exchangeCode(form, clientId)
          : grant === 'refresh_token'
            ? await this.refresh(form, clientId)
            : (() => {
                throw new TokenError('unsupported_grant_type', 'Supported grants: authorization_code, refresh_token.');
              })();
      return json(200, tokens, { 'cache-control': 'no-store', pragma: 'no-cache' });
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      this.options.logger.warn('oauth token request refused', { error: error.code, reason: error.message.slice(0, 120) });
      return json(error.status, { error: error.code, error_description: error.message }, { 'cache-control': 'no-store' });
    }
  }

  /**
   * Which budget a token or revocation request is counted against. `owner` is the client whose
   * code or token the request presents (found by hash in the state already read: no lock, no
   * write): that client's own budget, so junk from strangers through the same tunnel cannot
   * stop it refreshing or finishing its authorization. Anything else can only fail; it shares
   * one budget for everyone, and past it is refused before any work is done.
   */
  private chargeTokenRequest(owner: string | null): Reply | null {
    if (owner === null) return this.limits.token.take() ? null : this.junkRefused();
    const { ok, limiter } = this.limits.tokenPerClient.take(owner);
    if (ok) return null;
    return tooMany(limiter, limitText(limiter, 'Too many token requests', 'for this client'));
  }

  private junkRefused(): Reply {
    const refused = limitText(this.limits.token, 'Too many token requests without a valid code or refresh token', 'all callers together');
    return tooMany(this.limits.token, `${refused} Requests with a valid code or refresh token are not held back by this limit.`);
  }

  /**
   * True when the form presents a grant this server issued to this client: a refresh token
   * (also an already used one, so its replay still revokes its family), or a code with the
   * PKCE verifier that matches it. Each such grant is consumed by its first full check (used,
   * burnt or revoked), so it cannot buy more than one pass.
   */
  private presentsGrant(form: URLSearchParams, clientId: string): boolean {
    const view = this.store.view();
    const now = this.now();
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

  private exchangeCode(form: URLSearchParams, clientId: string): Promise<TokenResponse> {
    const code = single(form, 'code') ?? '';
    const verifier = single(form, 'code_verifier') ?? '';
    const redirectUri = single(form, 'redirect_uri');
    const resource = single(form, 'resource');
    const now = this.now();
    return this.updateOrRefuse((state) => {
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

  private refresh(form: URLSearchParams, clientId: string): Promise<TokenResponse> {
    const presented = single(form, 'refresh_token') ?? '';
    const resource = single(form, 'resource');
    const scope = single(form, 'scope');
    const now = this.now();
    return this.updateOrRefuse((state) => {
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
  private async updateOrRefuse<T>(change: (state: OAuthState) => T): Promise<T> {
    const result = await this.store.update((state) => {
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

  /** RFC 7009: always 200; a known token ends its whole authorization. */
  private async revoke(req: http.IncomingMessage): Promise<Reply> {
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBody(req));
    } catch (error) {
      if (!this.limits.token.take()) return this.junkRefused();
      return json(400, { error: 'invalid_request', error_description: bodyProblem(error, 'an application/x-www-form-urlencoded body') });
    }
    const hash = hashSecret(single(form, 'token') ?? '');
    const clientId = single(form, 'client_id') ?? basicClientId(req.headers.authorization);
    const known = this.store.view().tokens.get(hash);
    const refused = this.chargeTokenRequest(known && (clientId === undefined || known.clientId === clientId) ? known.clientId : null);
    if (refused) return refused;
    await this.store.update((state) => {
      const token = state.tokens.find((t) => t.hash === hash);
      if (token && (clientId === undefined || token.clientId === clientId)) revokeFamily(state, token.family);
    });
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: '' };
  }
}

interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Adds a client within the bound: room is made from clients nobody approved, oldest first; approved ones stay. */
function admitClient(state: OAuthState, client: OAuthClient): boolean {
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

function issueCode(state: OAuthState, request: PendingAuthorization, hash: string, now: number): void {
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

function issueTokens(state: OAuthState, grant: { clientId: string; family: string; resource: string; scope: string }, now: number): TokenResponse {
  const access = newSecret('access');
  const refresh = newSecret('refresh');
  const base = { clientId: grant.clientId, family: grant.family, resource: grant.resource, scope: grant.scope, usedAt: null };
  state.tokens.push({ ...base, hash: hashSecret(access), kind: 'access', expiresAt: now + LIMITS.accessTokenMs });
  state.tokens.push({ ...base, hash: hashSecret(refresh), kind: 'refresh', expiresAt: now + LIMITS.refreshTokenMs });
  return { access_token: access, token_type: 'Bearer', expires_in: Math.floor(LIMITS.accessTokenMs / 1000), refresh_token: refresh, scope: grant.scope };
}

function revokeFamily(state: OAuthState, family: string): void {
  state.tokens = state.tokens.filter((t) => t.family !== family);
}

/** RFC 8707 resource values compared as URLs without a fragment or one trailing slash. */
function sameResource(a: string, b: string): boolean {
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

/** One value of a parameter; a repeated parameter counts as absent-and-invalid (RFC 6749 §3.1). */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

function query(req: http.IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at >= 0 ? url.slice(at + 1) : '');
}

function basicClientId(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  try {
    return decodeURIComponent(decoded.split(':')[0] ?? '') || undefined;
  } catch {
    // A malformed %-escape (%zz) names no client: refused like any unknown one, not a 500.
    return undefined;
  }
}

class BodyTooLarge extends Error {}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > LIMITS.maxBodyBytes) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function bodyProblem(error: unknown, expected: string): string {
  return error instanceof BodyTooLarge ? `The body is larger than ${LIMITS.maxBodyBytes} bytes.` : `Expected ${expected}.`;
}

/** Waits for `work`, but no longer than `ms` (the work goes on regardless). */
async function withinMs(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

function html(status: number, body: string): Reply {
  return { status, headers: { ...PAGE_HEADERS }, body };
}

function notAllowed(allow: string): Reply {
  return {
    ...json(405, { error: 'invalid_request', error_description: `Method not allowed; use ${allow}.` }),
    headers: { 'content-type': 'application/json', allow },
  };
}

/** What was refused, the limit and whom it counts, and when to try again. */
function limitText(limiter: RateLimiter, what: string, scope: string): string {
  return `${what} (${limiter.limit} a minute, ${scope}); try again in ${limiter.retryAfterSeconds()} s.`;
}

function tooMany(limiter: RateLimiter, message: string, page = false): Reply {
  const headers = { 'retry-after': String(limiter.retryAfterSeconds()) };
  if (page) return { status: 429, headers: { ...PAGE_HEADERS, ...headers }, body: messagePage('Too many attempts', message) };
  return json(429, { error: 'temporarily_unavailable', error_description: message }, headers);
}

function redirect(target: string, params: Record<string, string | null>): Reply {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return { status: 303, headers: { location: url.href, 'cache-control': 'no-store' }, body: '' };
}
