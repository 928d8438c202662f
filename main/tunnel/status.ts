/**
 * The tunnel's state as every view shows it (tray, settings window, `chatgpt-mcp tunnel
 * status`). Types only plus one pure summary, so the renderer can import it.
 *
 *   stopped   nothing runs
 *   starting  the client is starting or restarting; not yet proven ready
 *   ready     the client's /readyz is ready AND our server answered discover + tools/list
 *             through the headers the tunnel sends
 *   degraded  running but not usable right now, likely to recover by itself (a restart is
 *             pending, the client is not ready yet, the server is unreachable)
 *   error     needs the owner: no client, a bad key or tunnel id, a wrong or missing token
 */
import type { LogLine } from './log-tail.js';

export const TUNNEL_STATES = ['stopped', 'starting', 'ready', 'degraded', 'error'] as const;
export type TunnelState = (typeof TUNNEL_STATES)[number];

export interface TunnelStatus {
  state: TunnelState;
  /** One sentence for the owner; always set outside `stopped`/`ready`. */
  reason: string | null;
  tunnelId: string | null;
  /** The client's process id while it runs. */
  pid: number | null;
  /** The client's health listener, e.g. http://127.0.0.1:43121 (its /ui is the client's own page). */
  healthUrl: string | null;
  /** The client's last /readyz answer. */
  readiness: string | null;
  /** Tools our server listed through the tunnel's headers at the last check. */
  toolCount: number | null;
  restarts: number;
  /** ISO time of the last state change. */
  since: string;
  /** Recent output, redacted. */
  log: LogLine[];
}

export function stoppedStatus(tunnelId: string | null = null, reason: string | null = null): TunnelStatus {
  return {
    state: 'stopped',
    reason,
    tunnelId,
    pid: null,
    healthUrl: null,
    readiness: null,
    toolCount: null,
    restarts: 0,
    since: new Date().toISOString(),
    log: [],
  };
}

/** One line: "Ready" or "Error: the reason". */
export function tunnelStatusLine(status: Pick<TunnelStatus, 'state' | 'reason'>): string {
  const label = { stopped: 'Not connected', starting: 'Connecting…', ready: 'Ready', degraded: 'Degraded', error: 'Error' }[status.state];
  if (status.state === 'ready' || !status.reason) return label;
  const reason = status.reason.length > 110 ? `${status.reason.slice(0, 109)}…` : status.reason;
  return `${label}: ${reason}`;
}

/** Where the client comes from and what it says it is, for step 1 of the journey. */
export interface TunnelClientInfo {
  path: string;
  source: 'configured' | 'app-data' | 'path';
  version: string | null;
}

export type TunnelClientLookup = { ok: true; client: TunnelClientInfo } | { ok: false; error: string; searched: string[] };

/** Where the runtime key is kept: shown to the owner, never the key itself. */
export interface KeyStorageInfo {
  stored: boolean;
  /** e.g. "the OS keychain (Electron safeStorage)", "the Secret Service keyring", "an owner-only file". */
  where: string;
  /** Set when the place is weaker than an OS secret store (the owner-only file fallback). */
  warning: string | null;
}

/** Where a tunnel, a runtime key and the ChatGPT connectors are created (the tunnel client's own doctor names these). */
export const LINKS = {
  tunnels: 'https://platform.openai.com/settings/organization/tunnels',
  apiKeys: 'https://platform.openai.com/settings/organization/api-keys',
  connectors: 'https://chatgpt.com/#settings/Connectors',
} as const;
export type LinkId = keyof typeof LINKS;

/** What the settings window and the tray know about the ChatGPT connection. */
export interface TunnelSnapshot {
  /** True while the owner wants ChatGPT connected (also while the server is down). */
  wanted: boolean;
  status: TunnelStatus;
  key: KeyStorageInfo;
  /** The saved config's tunnel id, or null. */
  tunnelId: string | null;
}

export type TunnelActionResult = { ok: true; snapshot: TunnelSnapshot } | { ok: false; error: string; snapshot: TunnelSnapshot };
export type TunnelDownloadResult = { ok: true; lookup: TunnelClientLookup } | { ok: false; error: string };
export type KeySaveResult = { ok: true; key: KeyStorageInfo } | { ok: false; error: string };
