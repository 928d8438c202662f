/**
 * The server's view of the OAuth state file: read once, then read again only when the file
 * changed (one stat per request, a new inode after every atomic write). So a revocation or an
 * approval written by the tray or the CLI takes effect at the very next request.
 */
import fs from 'node:fs';
import { readState, updateState, type IssuedToken, type OAuthClient, type OAuthState, type PendingAuthorization } from './oauth-state.js';

export interface StateView {
  state: OAuthState;
  clients: ReadonlyMap<string, OAuthClient>;
  tokens: ReadonlyMap<string, IssuedToken>;
  pending: ReadonlyMap<string, PendingAuthorization>;
}

export class OAuthStore {
  private cached: { key: string; view: StateView } | null = null;

  constructor(
    readonly file: string,
    readonly now: () => number = Date.now,
  ) {}

  view(): StateView {
    const key = fileKey(this.file);
    if (this.cached && this.cached.key === key) return this.cached.view;
    const state = readState(this.file);
    const view: StateView = {
      state,
      clients: new Map(state.clients.map((c) => [c.id, c])),
      tokens: new Map(state.tokens.map((t) => [t.hash, t])),
      pending: new Map(state.pending.map((p) => [p.handleHash, p])),
    };
    this.cached = { key, view };
    return view;
  }

  update<T>(change: (state: OAuthState) => T): Promise<T> {
    return updateState(this.file, change, this.now).finally(() => {
      this.cached = null;
    });
  }
}

function fileKey(file: string): string {
  try {
    const stat = fs.statSync(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'absent';
  }
}
