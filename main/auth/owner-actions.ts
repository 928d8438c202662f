/**
 * What the owner does with OAuth, from the tray or from `chatgpt-mcp oauth ...`: list clients
 * and waiting requests, approve or deny a request by its code, revoke a client. Each change
 * goes through the state file (see oauth-state.ts), which the running server reads at its
 * next request: no extra channel into the server, nothing reachable through the tunnel.
 */
import type { ConnectedClient, ConnectionsSnapshot, ConsentRequest } from './connections.js';
import { readState, updateState, type OAuthClient, type OAuthState, type PendingAuthorization } from './oauth-state.js';
import { normalizeUserCode } from './secrets.js';

export class OwnerActionError extends Error {
  override name = 'OwnerActionError';
}

export function listConnections(file: string, now = Date.now()): ConnectionsSnapshot {
  return snapshot(readState(file), now);
}

export function snapshot(state: OAuthState, now: number): ConnectionsSnapshot {
  const clients = state.clients.map((client) => describeClient(client, state, now));
  const pending = state.pending.filter((p) => waiting(p, now)).map((p) => describeRequest(p, state));
  return { clients, pending };
}

/** Approves the waiting request with this code; the authorize page then hands its client a code. */
export function approve(file: string, code: string, now: () => number = Date.now): Promise<ConsentRequest> {
  return decide(file, code, 'approved', now);
}

export function deny(file: string, code: string, now: () => number = Date.now): Promise<ConsentRequest> {
  return decide(file, code, 'denied', now);
}

function decide(file: string, input: string, decision: 'approved' | 'denied', now: () => number): Promise<ConsentRequest> {
  const code = normalizeUserCode(input);
  if (!code) return Promise.reject(new OwnerActionError(`"${input.slice(0, 20)}" is not a code like KD7F-M2QP (the authorize page shows it)`));
  return updateState(
    file,
    (state) => {
      const at = now();
      const request = state.pending.find((p) => p.userCode === code && waiting(p, at));
      if (!request) {
        const open = state.pending.filter((p) => waiting(p, at)).map((p) => p.userCode);
        throw new OwnerActionError(
          `no authorization request with code ${code} is waiting${open.length ? ` (waiting now: ${open.join(', ')})` : ' (none is waiting; requests expire after 5 minutes)'}`,
        );
      }
      request.decision = decision;
      request.decidedAt = at;
      if (decision === 'approved') {
        const client = state.clients.find((c) => c.id === request.clientId);
        if (client) client.approvedAt = at;
      }
      return describeRequest(request, state);
    },
    now,
  );
}

/** Forgets the client: its tokens stop working at the server's next request, its waiting requests are dropped. */
export function revokeClient(file: string, id: string, now: () => number = Date.now): Promise<ConnectedClient> {
  return updateState(
    file,
    (state) => {
      const client = state.clients.find((c) => c.id === id);
      if (!client) {
        const ids = state.clients.map((c) => `${c.id} (${c.name})`);
        throw new OwnerActionError(`no OAuth client has the id "${id.slice(0, 80)}"${ids.length ? `; clients: ${ids.join(', ')}` : '; none is registered'}`);
      }
      const described = describeClient(client, state, now());
      state.clients = state.clients.filter((c) => c.id !== id);
      state.tokens = state.tokens.filter((t) => t.clientId !== id);
      state.codes = state.codes.filter((c) => c.clientId !== id);
      state.pending = state.pending.filter((p) => p.clientId !== id);
      return { ...described, activeTokens: 0 };
    },
    now,
  );
}

export function waiting(request: PendingAuthorization, now: number): boolean {
  return request.decision === 'pending' && request.expiresAt > now;
}

function describeClient(client: OAuthClient, state: OAuthState, now: number): ConnectedClient {
  return {
    id: client.id,
    name: client.name,
    redirectHosts: [...new Set(client.redirectUris.map(hostOf))],
    registeredAt: iso(client.registeredAt),
    approvedAt: client.approvedAt === null ? null : iso(client.approvedAt),
    lastUsedAt: client.lastUsedAt === null ? null : iso(client.lastUsedAt),
    activeTokens: state.tokens.filter((t) => t.clientId === client.id && t.usedAt === null && t.expiresAt > now).length,
  };
}

function describeRequest(request: PendingAuthorization, state: OAuthState): ConsentRequest {
  const client = state.clients.find((c) => c.id === request.clientId);
  return {
    code: request.userCode,
    clientId: request.clientId,
    clientName: client?.name ?? 'unknown client',
    redirectHost: hostOf(request.redirectUri),
    redirectUri: request.redirectUri,
    createdAt: iso(request.createdAt),
    expiresAt: iso(request.expiresAt),
  };
}

/** The host a redirect URI sends codes to (the scheme for app schemes like cursor://). */
export function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    // An app's own scheme is part of where the code goes: com.evil.app://chatgpt.com is not chatgpt.com.
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.host;
    return `${url.protocol}//${url.host}`;
  } catch {
    return uri.slice(0, 80);
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
