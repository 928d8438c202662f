/**
 * Why `serve --http` refuses a configuration before listening, as one pure function: the HTTP
 * server applies it at start and `config check` applies the same one, so the two never disagree.
 */
import { publicOrigin } from '../auth/public-origin.js';
import type { AuthMode } from '../config/schema.js';
import { bindRefusal, tunnelRefusal } from './http-guards.js';

export interface StartRefusal {
  message: string;
  reason: 'not-loopback' | 'open-beyond-loopback' | 'open-tunnel' | 'no-public-url';
}

/** The first rule the server settings break (bind address, public tunnel host without a credential, OAuth without one public URL), or null. */
export function httpStartRefusal(server: {
  host: string;
  port: number;
  allowNonLoopback: boolean;
  allowedHosts: readonly string[];
  publicUrl: string;
  auth: AuthMode;
}): StartRefusal | null {
  const refusal = bindRefusal(server) ?? tunnelRefusal(server);
  if (refusal) return refusal;
  if (server.auth !== 'oauth' && server.auth !== 'bearer+oauth') return null;
  // The port only shapes a loopback origin, which is never an error: the configured one is enough here.
  const origin = publicOrigin(server, server.port);
  return 'error' in origin ? { message: origin.error, reason: 'no-public-url' } : null;
}
