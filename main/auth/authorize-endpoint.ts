/**
 * GET /oauth/authorize: checks an authorization request (a known client or a client ID
 * metadata document, its exact redirect URI, PKCE S256, this resource, known scopes) and turns
 * it into a request waiting for the owner, then sends the browser to the waiting page
 * (consent-wait-endpoint.ts). Nothing is granted here: the owner decides on this computer.
 */
import { publicCliHint } from '../command-name.js';
import { ClientDocumentError, fetchClientDocument, isDocumentClientId } from './client-metadata-document.js';
import { displayName } from './client-registration.js';
import { messagePage } from './consent-page.js';
import { sameResource } from './oauth-grants.js';
import { OAUTH_PATHS, type OAuthContext } from './oauth-context.js';
import { html, limitText, single, tooMany, type Reply } from './oauth-http.js';
import { LIMITS, SUPPORTED_SCOPES } from './oauth-limits.js';
import type { OAuthClient, PendingAuthorization } from './oauth-state.js';
import { snapshot } from './owner-actions.js';
import { admitClient } from './registration-endpoint.js';
import { hashSecret, newSecret, newUserCode, S256_CHALLENGE } from './secrets.js';

/** A metadata-document client is read again after a day, so its redirect URIs follow the document. */
const DOCUMENT_REFRESH_MS = 24 * 60 * 60_000;

export async function authorize(context: OAuthContext, params: URLSearchParams): Promise<Reply> {
  const clientId = single(params, 'client_id');
  let client = clientId ? context.store.view().clients.get(clientId) : undefined;
  if (clientId && isDocumentClientId(clientId) && (!client || context.now() - client.registeredAt > DOCUMENT_REFRESH_MS)) {
    const loaded = await documentClient(context, clientId, client);
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
  // An invalid request is answered here, never by sending the browser to the client's address:
  // anyone can register a client, and an error redirect from this server's public origin to an
  // address of their choosing is an open redirect. Only the owner's decision goes back to the app.
  const fail = (error: string, description: string) => html(400, messagePage('This connection request is invalid', `${description} (${error})`));
  if (rawState !== null && state === null) return fail('invalid_request', 'state is longer than 1024 characters.');
  if (single(params, 'response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = single(params, 'code_challenge');
  if (single(params, 'code_challenge_method') !== 'S256' || !challenge || !S256_CHALLENGE.test(challenge)) {
    return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  }
  const resource = single(params, 'resource');
  if (resource !== undefined && !sameResource(resource, context.resource)) {
    return fail('invalid_target', `This server is the resource ${context.resource}.`);
  }
  const scope = single(params, 'scope');
  const scopes = (scope ?? '').split(' ').filter(Boolean);
  if (scopes.some((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s)))
    return fail('invalid_scope', `Supported scopes: ${SUPPORTED_SCOPES.join(' ')}.`);
  // A client the owner approved before (reconnecting) has its own budget and its own room
  // among the waiting requests, so strangers' requests for their own clients cannot crowd it out.
  const approvedBefore = client.approvedAt !== null;
  const budget = approvedBefore
    ? context.limits.authorizePerClient.take(client.id)
    : { ok: context.limits.authorize.take(), limiter: context.limits.authorize };
  if (!budget.ok) {
    const scope = approvedBefore ? 'for this app' : 'all callers together';
    return tooMany(budget.limiter, limitText(budget.limiter, "Too many connection attempts through this server's address", scope), true);
  }

  const handle = newSecret('consent');
  const now = context.now();
  const pending: PendingAuthorization = {
    handleHash: hashSecret(handle),
    userCode: newUserCode(),
    clientId: client.id,
    redirectUri,
    codeChallenge: challenge,
    state,
    resource: context.resource,
    scope: scopes.length ? scopes.join(' ') : SUPPORTED_SCOPES.join(' '),
    createdAt: now,
    expiresAt: now + LIMITS.consentMs,
    decision: 'pending',
    decidedAt: null,
  };
  const accepted = await context.store.update((s) => {
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
          : `${LIMITS.maxPending} connection requests from new apps are already waiting for approval on the computer (each waits up to ${LIMITS.consentMs / 60_000} minutes). Try again in a few minutes; the owner can deny the waiting ones in Connected clients or with ${publicCliHint('oauth deny CODE')}.`,
      ),
    );
  context.options.logger.info('oauth authorization waiting for the owner', { client: client.id, code: pending.userCode });
  try {
    context.options.onConsentRequest?.(accepted);
  } catch {
    // a notification failure must not fail the request
  }
  return { status: 303, headers: { location: `${OAUTH_PATHS.wait}?request=${encodeURIComponent(handle)}`, 'cache-control': 'no-store' }, body: '' };
}

/** Reads (or reads again) a client's metadata document and keeps it as a client; an approval it had stays. */
async function documentClient(context: OAuthContext, clientId: string, known: OAuthClient | undefined): Promise<{ client: OAuthClient } | { error: string }> {
  // Reading again the document of an app this server knows counts against that app's own budget:
  // strangers' junk client_id URLs use up the shared one, and must not keep a known app out.
  const budget = known ? context.limits.authorizePerClient.take(known.id) : { ok: context.limits.document.take(), limiter: context.limits.document };
  if (!budget.ok) {
    return known
      ? { error: limitText(budget.limiter, "Too many connection attempts through this server's address", 'for this app') }
      : { error: limitText(budget.limiter, "Too many new apps through this server's address", 'all callers together') };
  }
  let doc;
  try {
    doc = await fetchClientDocument(clientId, context.options.metadataFetch);
  } catch (error) {
    if (!(error instanceof ClientDocumentError)) throw error;
    context.options.logger.warn('client metadata document refused', { reason: error.message.slice(0, 160) });
    return { error: `The app's description at its client_id URL could not be used: ${error.message}.` };
  }
  const client: OAuthClient = {
    id: clientId,
    name: displayName(doc.name, new URL(clientId).host),
    redirectUris: doc.redirectUris,
    source: 'metadata-document',
    registeredAt: context.now(),
    approvedAt: known?.approvedAt ?? null,
    lastUsedAt: known?.lastUsedAt ?? null,
  };
  const admitted = await context.store.update((state) => {
    state.clients = state.clients.filter((c) => c.id !== clientId);
    return admitClient(state, client);
  });
  return admitted ? { client } : { error: `This server already has ${LIMITS.maxClients} approved clients; its owner must revoke one first.` };
}
