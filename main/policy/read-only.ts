/**
 * The read-only switch (server.readOnly, the tray's "Pause writes"): while it is on, only the
 * built-in tools whose annotations promise they change nothing are exposed; every other one is
 * hidden and refused. The annotations decide, so a tool that does not say it is read-only counts
 * as one that writes. The other MCP servers' tools are hidden whole, as for a read-only profile:
 * an upstream's annotations are its own claim.
 */
import type { Config } from '../config/schema.js';

export const READ_ONLY_WORDS = 'the server is read-only (server.readOnly; the tray\'s "Pause writes")';

export function hiddenByReadOnly(config: Readonly<Config>, annotations: { readOnlyHint?: boolean } | undefined): boolean {
  return config.server.readOnly && annotations?.readOnlyHint !== true;
}

export function readOnlyGatewayRefusal(exposed: string): string {
  return `CAPABILITY_DISABLED: ${exposed} is another MCP server's tool, and ${READ_ONLY_WORDS} hides those whole (their annotations are their own claim); the owner turns that off, then restarts the server`;
}
