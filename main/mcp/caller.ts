/**
 * Who made a tool call, from what the request carries: the OAuth client or the static bearer
 * token (HTTP's authInfo), otherwise the name the host gave in its clientInfo (the per-request
 * envelope on 2026-07-28, the `initialize` of a 2025-era stdio connection). Never the
 * credential itself: an audit line or the activity view names who, not with what.
 */
import { CLIENT_INFO_META_KEY, type AuthInfo } from '@modelcontextprotocol/server';
import type { Credential } from '../policy/profiles.js';

export type Caller =
  | { kind: 'oauth'; id: string; name: string }
  | { kind: 'token' }
  /** No credential (stdio, or HTTP with server.auth "none"): the host's own name for itself, when it gave one. */
  | { kind: 'host'; name: string | null; version?: string };

type ClientInfo = { name?: unknown; version?: unknown } | undefined;

export const BEARER_CLIENT_ID = 'bearer-token';

export function callerOf(auth: AuthInfo | undefined, envelope: Record<string, unknown> | undefined, initialized: () => ClientInfo): Caller {
  if (auth) {
    if (auth.clientId === BEARER_CLIENT_ID) return { kind: 'token' };
    const name = auth.extra?.clientName;
    return { kind: 'oauth', id: auth.clientId, name: typeof name === 'string' && name ? name : auth.clientId };
  }
  const info = (envelope?.[CLIENT_INFO_META_KEY] as ClientInfo) ?? initialized();
  const name = typeof info?.name === 'string' && info.name ? info.name : null;
  return typeof info?.version === 'string' ? { kind: 'host', name, version: info.version } : { kind: 'host', name };
}

/** The credential a request carries, as the profile policy sees it. */
export function credentialOf(auth: AuthInfo | undefined): Credential {
  if (!auth) return { kind: 'none' };
  return auth.clientId === BEARER_CLIENT_ID ? { kind: 'token' } : { kind: 'oauth', clientId: auth.clientId };
}

/** The host's name from a 2026-07-28 request's envelope (its clientInfo), if it gave one. */
export function envelopeClientName(envelope: Record<string, unknown> | undefined): string | undefined {
  const name = (envelope?.[CLIENT_INFO_META_KEY] as ClientInfo)?.name;
  return typeof name === 'string' && name ? name : undefined;
}

/** One short name for the activity view: the OAuth client's, "bearer token", or the host's. */
export function callerName(caller: Caller): string | null {
  if (caller.kind === 'oauth') return caller.name;
  if (caller.kind === 'token') return 'bearer token';
  return caller.name;
}
