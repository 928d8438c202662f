/** The authorization server's fixed lifetimes and bounds (documented in docs/CHATGPT.md). */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const LIMITS = {
  /** An access token is short-lived; the client refreshes it. */
  accessTokenMs: HOUR,
  /** A refresh token lasts a month; each use replaces it (rotation). */
  refreshTokenMs: 30 * DAY,
  /** An authorization code must be exchanged within a minute. */
  codeMs: MINUTE,
  /** The owner has this long to approve on this computer; then the request is denied. */
  consentMs: 5 * MINUTE,
  /** A registered client nobody approved is forgotten after a day. */
  unapprovedClientMs: DAY,
  /** Registered clients kept at most; unapproved ones make room first. */
  maxClients: 50,
  /** Authorization requests of clients never approved, waiting for the owner at once. */
  maxPending: 5,
  /** Waiting requests of one client the owner approved before (it reconnects), on top of those. */
  maxPendingPerApprovedClient: 2,
  /** Attempts per minute (all callers together: the tunnel is one loopback peer). */
  registrationsPerMinute: 10,
  authorizationsPerMinute: 10,
  /** Authorizations of one client the owner approved before: its own budget, apart from the shared one. */
  authorizationsPerApprovedClientPerMinute: 3,
  /** Token and revocation requests that present no code or token this server issued (they can only fail). */
  tokenRequestsPerMinute: 60,
  /** Token and revocation requests of one client that present its own code or refresh token. */
  tokenRequestsPerClientPerMinute: 20,
  /** How often a client's "last used" time is written, at most. */
  lastUsedWriteMs: MINUTE,
  /** A client's first use waits this long, at most, for its "last used" to be written. */
  lastUsedWaitMs: 2_000,
  /** The tray alerts the owner of new consent requests at most this often (the window lists every one). */
  consentAlertMs: 30_000,
  /** The waiting page asks again this often. */
  consentPollSeconds: 2,
  /** Bodies of registration and token requests. */
  maxBodyBytes: 16 * 1024,
} as const;

export const SUPPORTED_SCOPES = ['mcp'] as const;
