/**
 * The resource side: the access token of each /mcp request, checked against the state file at
 * every request (so a revocation works at once), the 401 answer when it fails, and the client's
 * "last used" time for the Connected clients list.
 */
import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode, verifyBearerToken, type AuthInfo } from '@modelcontextprotocol/server';
import type { OAuthContext } from './oauth-context.js';
import type { Reply } from './oauth-http.js';
import { LIMITS } from './oauth-limits.js';
import type { OAuthClient } from './oauth-state.js';
import { hashSecret } from './secrets.js';

export class AccessTokens {
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly context: OAuthContext,
    private readonly resourceMetadataUrl: string,
  ) {}

  /**
   * The verified token behind an Authorization header, or an OAuthError (invalid_token).
   * The SDK's verifyBearerToken parses the header and checks expiry and audience.
   */
  authenticate(authorization: string | undefined): Promise<AuthInfo> {
    return verifyBearerToken(authorization, {
      verifier: { verifyAccessToken: (token) => this.verifyAccessToken(token) },
      resourceMetadataUrl: this.resourceMetadataUrl,
      expectedResource: new URL(this.context.resource),
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
    const view = this.context.store.view();
    const issued = view.tokens.get(hashSecret(token));
    const now = this.context.now();
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
    const write = this.context.store
      .update((state) => {
        const current = state.clients.find((c) => c.id === client.id);
        if (current) current.lastUsedAt = Math.max(current.lastUsedAt ?? 0, now);
      })
      .catch((error: unknown) => this.context.options.logger.warn('could not record OAuth client use', { error: (error as Error).name }));
    if (written === null) await withinMs(write, LIMITS.lastUsedWaitMs);
  }
}

/** Waits for `work`, but no longer than `ms` (the work goes on regardless). */
async function withinMs(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
