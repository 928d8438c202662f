/**
 * Connected clients: every OAuth client (ChatGPT, Claude, mcp-remote...) that registered with
 * this server, when the owner approved it and when it last made a call. Revoking forgets the
 * client and ends its tokens at once; it can connect again only with a new approval.
 */
import { useState } from 'react';
import type { ConnectedClient, ConnectionsSnapshot, SettingsBridge } from '../../../main/tray/bridge-api';
import { Card } from '../components/fields';
import { ConsentPrompt } from '../components/ConsentPrompt';
import '../components/connections.css';

function when(iso: string | null): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function ClientsSection({
  connections,
  now,
  bridge,
  reload,
}: {
  connections: ConnectionsSnapshot;
  now: number;
  bridge: SettingsBridge;
  reload(): Promise<void>;
}) {
  return (
    <>
      <ConsentPrompt requests={connections.pending} now={now} bridge={bridge} onDone={() => void reload()} />
      <Card
        title="Connected clients"
        description="Apps that connect with OAuth (server.auth “oauth” or “bearer+oauth”). Each one needed your approval on this computer. Revoking one stops it at once."
      >
        {connections.clients.length === 0 ? (
          <p className="empty">
            No app has connected with OAuth yet. Add this server&apos;s public URL as a connector in ChatGPT; its request then appears here to approve.
          </p>
        ) : (
          <div className="table-scroll">
            <table className="table clients">
              <thead>
                <tr>
                  <th scope="col">App</th>
                  <th scope="col">Returns to</th>
                  <th scope="col">Approved</th>
                  <th scope="col">Last used</th>
                  <th scope="col" className="shrink">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {connections.clients.map((client) => (
                  <ClientRow key={client.id} client={client} bridge={bridge} reload={reload} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}

function ClientRow({ client, bridge, reload }: { client: ConnectedClient; bridge: SettingsBridge; reload(): Promise<void> }) {
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
