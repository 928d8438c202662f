/**
 * Connected clients: every OAuth client (ChatGPT, Claude, mcp-remote...) the owner approved on
 * this computer, when and when it last made a call. A client that registered but was never
 * approved is not connected (it cannot call anything), so it is only counted. Revoking forgets
 * the client and ends its tokens at once; it can connect again only with a new approval.
 */
import type { AuthMode } from '../../../../main/config/schema';
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
  auth,
}: {
  /** The sign-in the settings choose: with OAuth off, no app can connect this way. */
  auth: AuthMode;
  connections: ConnectionsSnapshot;
  now: number;
  bridge: SettingsBridge;
  reload(): Promise<void>;
}) {
  const approved = connections.clients.filter((client) => client.approvedAt !== null);
  const unapproved = connections.clients.length - approved.length;
  const oauthOn = auth === 'oauth' || auth === 'bearer+oauth';
  return (
    <>
      <ConsentPrompt requests={connections.pending} now={now} bridge={bridge} onDone={() => void reload()} />
      <Card title="Connected clients" description="Apps that sign in with OAuth, each approved by you on this computer. Revoking one stops it at once.">
        {approved.length === 0 ? (
          oauthOn ? (
            <p className="empty">
              No app has connected with OAuth yet. Add this server&apos;s public URL as an app in ChatGPT; its request then appears here to approve.
            </p>
          ) : (
            <p className="empty">
              OAuth sign-in is off, so no app can connect this way; clients use the access token instead. To let ChatGPT connect through a public tunnel with
              your approval, open Connection, choose “OAuth, approved on this computer” (or “Access token or OAuth”) under “Clients sign in with”, then save and
              restart.
            </p>
          )
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
                {approved.map((client) => (
                  <ClientRow key={client.id} client={client} bridge={bridge} reload={reload} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {unapproved > 0 ? (
          <p className="hint">
            {unapproved === 1 ? 'One app' : `${unapproved} apps`} registered but never approved: not connected, and unable to call anything. Unused
            registrations are forgotten after a day.
          </p>
        ) : null}
      </Card>
    </>
  );
}
