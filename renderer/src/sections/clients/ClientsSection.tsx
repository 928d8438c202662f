/**
 * Connected clients: every OAuth client (ChatGPT, Claude, mcp-remote...) that registered with
 * this server, when the owner approved it and when it last made a call. Revoking forgets the
 * client and ends its tokens at once; it can connect again only with a new approval.
 */
import type { ConnectionsSnapshot, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { ClientRow } from './ClientRow';
import { ConsentPrompt } from './ConsentPrompt';
import './clients.css';

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
                    <span className="visually-hidden">Actions</span>
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
