/**
 * GET /oauth/authorize/wait: the page the browser waits on. It shows the request's code and
 * reloads itself until the owner approves or denies on this computer (or the request expires),
 * then finishes the request exactly once: back to the app with a code, or with access_denied.
 */
import { messagePage, waitingPage } from './consent-page.js';
import { issueCode } from './oauth-grants.js';
import { OAUTH_PATHS, type OAuthContext } from './oauth-context.js';
import { html, redirect, single, type Reply } from './oauth-http.js';
import { LIMITS } from './oauth-limits.js';
import { hostOf } from './owner-actions.js';
import { hashSecret, newSecret } from './secrets.js';

/** The waiting page: shows the code until the owner decides, then sends the browser back to the app. */
export async function wait(context: OAuthContext, params: URLSearchParams): Promise<Reply> {
  const handle = single(params, 'request') ?? '';
  const handleHash = hashSecret(handle);
  const found = context.store.view().pending.get(handleHash);
  if (!found) return html(404, messagePage('Request not found', 'This connection request is unknown or finished. Start again from the app.'));
  const now = context.now();
  const back = (query: Record<string, string | null>) => redirect(found.redirectUri, { ...query, state: found.state, iss: context.issuer });
  if (found.decision === 'pending' && found.expiresAt > now) {
    const client = context.store.view().clients.get(found.clientId);
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
  const outcome = await context.store.update((state) => {
    const request = state.pending.find((p) => p.handleHash === handleHash);
    if (!request) return 'gone' as const;
    state.pending = state.pending.filter((p) => p !== request);
    if (request.decision !== 'approved') return request.decision === 'denied' ? ('denied' as const) : ('expired' as const);
    issueCode(state, request, hashSecret(code), now);
    return 'approved' as const;
  });
  if (outcome === 'gone') return html(404, messagePage('Request not found', 'This connection request is unknown or finished. Start again from the app.'));
  if (outcome === 'denied') return back({ error: 'access_denied', error_description: 'The owner of the computer denied this request.' });
  // Nobody looked at it: the browser is not sent to an address no owner ever saw (an open redirect
  // for anyone who registers a client), unless the owner approved this app before.
  if (outcome === 'expired') {
    const approvedBefore = (context.store.view().clients.get(found.clientId)?.approvedAt ?? null) !== null;
    if (!approvedBefore)
      return html(400, messagePage('Nobody approved this request', 'Nobody approved this request on the computer in time. Start again from the app.'));
    return back({ error: 'access_denied', error_description: 'Nobody approved this request on the computer in time.' });
  }
  context.options.logger.info('oauth authorization approved', { client: found.clientId });
  return back({ code });
}
