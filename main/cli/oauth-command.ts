/**
 * `chatgpt-mcp oauth list | approve CODE | deny CODE | revoke ID`: the owner's side of OAuth
 * without the tray. Each command changes the owner-only state file in the app config dir
 * (main/auth/owner-actions.ts); the running server reads it at its next request, so no
 * channel into the server exists that the tunnel could reach.
 */
import { oauthStatePath } from '../auth/oauth-state.js';
import { approve, deny, listConnections, OwnerActionError, revokeClient } from '../auth/owner-actions.js';
import { OAuthStateError } from '../auth/oauth-state.js';
import { EXIT, print, say, usageError } from './io.js';
import { cliHint } from '../command-name.js';
import { stateDir } from '../host/places.js';

export async function oauthCommand(sub: string | undefined, args: string[]): Promise<number> {
  const file = oauthStatePath(stateDir());
  const needsOne = (what: string) => (args.length === 1 ? null : usageError(`"oauth ${sub}" takes one ${what}, got ${args.length}`));
  try {
    switch (sub) {
      case 'list': {
        if (args.length > 0) return usageError(`unexpected argument "${args[0]}"`);
        return print(formatList(listConnections(file)));
      }
      case 'approve':
      case 'deny': {
        const bad = needsOne('code (the one the authorize page shows)');
        if (bad !== null) return bad;
        const request = await (sub === 'approve' ? approve : deny)(file, args[0]!);
        say(`${sub === 'approve' ? 'approved' : 'denied'} ${request.code}: "${request.clientName}", returning to ${request.redirectHost}`);
        return EXIT.ok;
      }
      case 'revoke': {
        const bad = needsOne(`client id (see ${cliHint('oauth list')})`);
        if (bad !== null) return bad;
        const client = await revokeClient(file, args[0]!);
        say(`revoked "${client.name}" (${client.id}): its tokens no longer work`);
        return EXIT.ok;
      }
      default:
        return usageError(`unknown oauth command "${sub ?? ''}"; expected "oauth list", "oauth approve CODE", "oauth deny CODE" or "oauth revoke ID"`);
    }
  } catch (error) {
    if (error instanceof OwnerActionError || error instanceof OAuthStateError) {
      say(error.message);
      return EXIT.config;
    }
    throw error;
  }
}

function formatList({ clients, pending }: ReturnType<typeof listConnections>): string {
  const lines: string[] = [];
  lines.push(pending.length ? 'Waiting for approval:' : 'Waiting for approval: none');
  for (const p of pending) lines.push(`  ${p.code}  "${p.clientName}" returning to ${p.redirectHost}, until ${p.expiresAt}`);
  // A client that registered but was never approved cannot call anything: it is not connected.
  const approved = clients.filter((c) => c.approvedAt !== null);
  const unapproved = clients.filter((c) => c.approvedAt === null);
  lines.push(approved.length ? 'Connected clients:' : 'Connected clients: none');
  for (const c of approved) {
    lines.push(
      `  ${c.id}  "${c.name}" (${c.redirectHosts.join(', ')}), approved ${c.approvedAt}, last used ${c.lastUsedAt ?? 'never'}, ${c.activeTokens} active tokens`,
    );
  }
  if (unapproved.length) lines.push('Registered but never approved (not connected; forgotten after a day):');
  for (const c of unapproved) lines.push(`  ${c.id}  "${c.name}" (${c.redirectHosts.join(', ')})`);
  return lines.join('\n');
}
