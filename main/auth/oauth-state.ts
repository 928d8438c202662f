/**
 * All OAuth state in one owner-only file, `<app config dir>/oauth.json`: registered clients,
 * consent requests waiting for the owner, and the hashes of issued codes and tokens. The
 * running server, the tray and `chatgpt-mcp oauth ...` all change it the same way: under a
 * lock file, read, change, write atomically. So an approval or a revocation made by any of
 * them is seen by the server at its next request, and no writer loses another's change.
 */
import path from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../config/atomic-file.js';
import { withStateLock } from '../config/state-lock.js';
import { readOwnedFile } from '../config/owned-state.js';
import { LIMITS } from './oauth-limits.js';

export const OAUTH_STATE_FILE = 'oauth.json';

export function oauthStatePath(appDir: string): string {
  return path.join(appDir, OAUTH_STATE_FILE);
}

const time = z.number().int().nonnegative();

const clientSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  redirectUris: z.array(z.string()).min(1),
  /** 'registration' (RFC 7591) or 'metadata-document' (the client id is the document's URL). */
  source: z.enum(['registration', 'metadata-document']),
  registeredAt: time,
  approvedAt: time.nullable(),
  lastUsedAt: time.nullable(),
});

const pendingSchema = z.object({
  /** Hash of the handle only the waiting browser page holds. */
  handleHash: z.string(),
  userCode: z.string(),
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  state: z.string().nullable(),
  resource: z.string(),
  scope: z.string(),
  createdAt: time,
  expiresAt: time,
  decision: z.enum(['pending', 'approved', 'denied']),
  decidedAt: time.nullable(),
});

const codeSchema = z.object({
  hash: z.string(),
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  resource: z.string(),
  scope: z.string(),
  family: z.string(),
  expiresAt: time,
  /** Set when exchanged; a second exchange is a replay and revokes what the first one got. */
  usedAt: time.nullable(),
});

const tokenSchema = z.object({
  hash: z.string(),
  kind: z.enum(['access', 'refresh']),
  clientId: z.string(),
  /** One authorization's chain of refreshes; a reused refresh token revokes the whole family. */
  family: z.string(),
  resource: z.string(),
  scope: z.string(),
  expiresAt: time,
  usedAt: time.nullable(),
});

export const oauthStateSchema = z.object({
  version: z.literal(1),
  clients: z.array(clientSchema),
  pending: z.array(pendingSchema),
  codes: z.array(codeSchema),
  tokens: z.array(tokenSchema),
});

export type OAuthState = z.output<typeof oauthStateSchema>;
export type OAuthClient = OAuthState['clients'][number];
export type PendingAuthorization = OAuthState['pending'][number];
export type IssuedCode = OAuthState['codes'][number];
export type IssuedToken = OAuthState['tokens'][number];

export function emptyState(): OAuthState {
  return { version: 1, clients: [], pending: [], codes: [], tokens: [] };
}

export class OAuthStateError extends Error {
  override name = 'OAuthStateError';
}

/** The file's state; an absent file is the empty state, a damaged one an error (never silently reset). */
export function readState(file: string): OAuthState {
  let text: string | null;
  try {
    text = readOwnedFile(file, 'the OAuth state file', false, 'delete it to forget every OAuth client (they will have to connect again)');
  } catch (error) {
    throw new OAuthStateError((error as Error).message);
  }
  if (text === null) return emptyState();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OAuthStateError(`${file} is not valid JSON; delete it to forget every OAuth client (they will have to connect again)`);
  }
  const result = oauthStateSchema.safeParse(parsed);
  if (!result.success) throw new OAuthStateError(`${file} is not an OAuth state file this version understands; delete it to forget every OAuth client`);
  return result.data;
}

/** Drops what can no longer be used: expired tokens, codes and requests, and clients never approved in time. */
export function prune(state: OAuthState, now: number): void {
  state.tokens = state.tokens.filter((t) => t.expiresAt > now);
  state.codes = state.codes.filter((c) => c.expiresAt > now);
  // Expired requests linger a little so the waiting page can still tell the app "denied".
  state.pending = state.pending.filter((p) => p.expiresAt + LIMITS.consentMs > now);
  state.clients = state.clients.filter(
    (c) => c.approvedAt !== null || now - c.registeredAt < LIMITS.unapprovedClientMs || state.pending.some((p) => p.clientId === c.id),
  );
  const known = new Set(state.clients.map((c) => c.id));
  state.tokens = state.tokens.filter((t) => known.has(t.clientId));
  state.codes = state.codes.filter((c) => known.has(c.clientId));
  state.pending = state.pending.filter((p) => known.has(p.clientId));
}

/**
 * Runs `change` on the current state under the lock and writes the result (owner-only,
 * atomically). What `change` returns is returned; if it throws, nothing is written.
 */
export function updateState<T>(file: string, change: (state: OAuthState) => T, now: () => number = Date.now): Promise<T> {
  return withStateLock(
    file,
    async () => {
      const state = readState(file);
      const result = change(state);
      prune(state, now());
      await writeFileAtomic(file, JSON.stringify(state, null, 1) + '\n');
      return result;
    },
    (lock) => new OAuthStateError(`the OAuth state file is locked (${lock}); if no chatgpt-mcp command is running, delete the lock file`),
  );
}
