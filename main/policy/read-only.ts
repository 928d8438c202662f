/**
 * The read-only switch (server.readOnly, the tray's "Pause writes"): while it is on, only the
 * tools whose annotations promise they change nothing are exposed; every other one, built-in or
 * from another server through the gateway, is hidden and refused. The annotations decide, so a
 * tool that does not say it is read-only counts as one that writes.
 */
import type { Config } from '../config/schema.js';

export const READ_ONLY_WORDS = 'the server is read-only (server.readOnly; the tray\'s "Pause writes")';

export function hiddenByReadOnly(config: Readonly<Config>, annotations: { readOnlyHint?: boolean } | undefined): boolean {
  return config.server.readOnly && annotations?.readOnlyHint !== true;
}
