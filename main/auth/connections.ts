/**
 * What the owner sees of OAuth (the tray's Connected clients list and consent prompt, and
 * `chatgpt-mcp oauth list`). Types only, free of imports, so the settings window shares them.
 */

/** A client the owner approved at least once, or one waiting for a first approval. */
export interface ConnectedClient {
  id: string;
  /** The name the client gave itself: unverified, so always shown with the redirect host. */
  name: string;
  /** Where its authorization codes go (the host part of its redirect URIs). */
  redirectHosts: string[];
  registeredAt: string;
  approvedAt: string | null;
  lastUsedAt: string | null;
  /** Access and refresh tokens currently valid. */
  activeTokens: number;
}

/** An authorization request waiting for the owner's decision on this computer. */
export interface ConsentRequest {
  /** The short code the authorize page shows; the owner compares the two. */
  code: string;
  clientId: string;
  clientName: string;
  redirectHost: string;
  redirectUri: string;
  createdAt: string;
  expiresAt: string;
}

export interface ConnectionsSnapshot {
  clients: ConnectedClient[];
  pending: ConsentRequest[];
}

export type OwnerActionResult = { ok: true } | { ok: false; error: string };
