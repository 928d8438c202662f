/**
 * The connection requests waiting for the owner's decision, one card each, above whatever page
 * is open (and at the top of Connected clients).
 */
import type { ConsentRequest, SettingsBridge } from '../../../../main/tray/bridge-api';
import { ConsentCard } from './ConsentCard';
import './consent.css';

export function ConsentPrompt({ requests, now, bridge, onDone }: { requests: ConsentRequest[]; now: number; bridge: SettingsBridge; onDone(): void }) {
  if (requests.length === 0) return null;
  return (
    <div className="consent-list">
      {requests.map((request) => (
        <ConsentCard key={request.code} request={request} now={now} bridge={bridge} onDone={onDone} />
      ))}
    </div>
  );
}
