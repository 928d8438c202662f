/** tunnel.*: the supervised OpenAI Secure MCP Tunnel client. */
import * as z from 'zod';
import { absolutePath } from './fields.js';

/** OpenAI's tunnel ids: `tunnel_` and 32 lowercase letters or digits (the check the tunnel client makes). */
export const TUNNEL_ID_PATTERN = /^tunnel_[a-z0-9]{32}$/;

/**
 * The supervised OpenAI Secure MCP Tunnel client. Identity and preferences only: the runtime
 * key is a secret and lives in the OS secret store (main/tunnel/secret-store.ts), never here.
 */
export const tunnelSchema = z.strictObject({
  /** The tunnel to serve, from the OpenAI Platform's Tunnels page. */
  tunnelId: z.string().regex(TUNNEL_ID_PATTERN, 'expected tunnel_ followed by 32 lowercase letters or digits').optional(),
  /** Start the tunnel client whenever the server starts (tray app). */
  connectAtStart: z.boolean().default(false),
  /** The tunnel-client program the owner picked; otherwise the app's own copy, then PATH. */
  clientPath: absolutePath.optional(),
});
