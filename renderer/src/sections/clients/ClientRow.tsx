/** One connected client: its name and tokens, where it returns to, when approved and last used, and Revoke (asked twice). */
import { useState } from 'react';
import type { ConnectedClient, SettingsBridge } from '../../../../main/tray/bridge-api';

function when(iso: string | null): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function ClientRow({ client, bridge, reload }: { client: ConnectedClient; bridge: SettingsBridge; reload(): Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const revoke = async () => {
    const result = await bridge.revokeClient(client.id);
    if (result.ok) await reload();
    else setError(result.error);
    setConfirming(false);
  };
  return (
    <tr>
      <td>
        <div>{client.name}</div>
        <div className="muted small mono" title={client.id}>
          {client.activeTokens} active {client.activeTokens === 1 ? 'token' : 'tokens'}
        </div>
        {error ? <div className="bad small">{error}</div> : null}
      </td>
      <td className="mono small">{client.redirectHosts.join(', ')}</td>
      <td className="shrink">{client.approvedAt ? when(client.approvedAt) : <span className="pill pill-bad">Not approved</span>}</td>
      <td className="shrink muted">{when(client.lastUsedAt)}</td>
      <td className="shrink">
        {confirming ? (
          <span className="revoke-confirm">
            <button type="button" className="button danger" onClick={() => void revoke()}>
              Revoke {client.name}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="button" onClick={() => setConfirming(true)} aria-label={`Revoke ${client.name}`}>
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}
