/**
 * The tray's side of OAuth, electron-free: the Connected clients list and the consent
 * prompt's actions (the same owner-actions as `chatgpt-mcp oauth`), and a watch on the state
 * file so the settings window sees requests and changes made by the server or the CLI.
 */
import fs from 'node:fs';
import type { ConnectionsSnapshot, OwnerActionResult } from '../auth/connections.js';
import { LIMITS } from '../auth/oauth-limits.js';
import { OAuthStateError } from '../auth/oauth-state.js';
import { approve, deny, listConnections, OwnerActionError, revokeClient } from '../auth/owner-actions.js';
import { RateLimiter } from '../auth/rate-limit.js';

export class OAuthPanel {
  private watching = false;
  private readonly alerts: RateLimiter;

  constructor(
    readonly stateFile: string,
    private readonly now: () => number = Date.now,
  ) {
    this.alerts = new RateLimiter(1, LIMITS.consentAlertMs, now);
  }

  list(): ConnectionsSnapshot {
    try {
      return listConnections(this.stateFile, this.now());
    } catch (error) {
      if (error instanceof OAuthStateError) return { clients: [], pending: [] };
      throw error;
    }
  }

  approve(code: string): Promise<OwnerActionResult> {
    return outcome(() => approve(this.stateFile, code, this.now));
  }

  deny(code: string): Promise<OwnerActionResult> {
    return outcome(() => deny(this.stateFile, code, this.now));
  }

  revoke(id: string): Promise<OwnerActionResult> {
    return outcome(() => revokeClient(this.stateFile, id, this.now));
  }

  /**
   * Whether a new consent request should alert the owner (a notification, the window brought
   * to the front): at most once per LIMITS.consentAlertMs, so a stranger flooding the public
   * URL with authorization requests cannot flood the owner's screen. Every request is still
   * listed in the window, each with its own code.
   */
  shouldAlert(): boolean {
    return this.alerts.take();
  }

  /** Calls `listener` with a fresh snapshot whenever the file changes (polled once a second). */
  watch(listener: (snapshot: ConnectionsSnapshot) => void): () => void {
    const onChange = () => {
      try {
        listener(this.list());
      } catch {
        // a broken listener must not stop the watch
      }
    };
    fs.watchFile(this.stateFile, { interval: 1000, persistent: false }, onChange);
    this.watching = true;
    return () => {
      if (!this.watching) return;
      this.watching = false;
      fs.unwatchFile(this.stateFile, onChange);
    };
  }
}

async function outcome(action: () => Promise<unknown>): Promise<OwnerActionResult> {
  try {
    await action();
    return { ok: true };
  } catch (error) {
    if (error instanceof OwnerActionError || error instanceof OAuthStateError) return { ok: false, error: error.message };
    throw error;
  }
}
