/**
 * The owner's decision on a connection request that came through the tunnel. It shows what
 * the authorize page shows (the code) and where the app's codes go (the redirect host), since
 * the app's name is whatever the app claims. Nothing is granted unless Approve is pressed.
 */
import { useState } from 'react';
import type { ConsentRequest, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Icon } from '../../components/Icon';
import './consent.css';

export function ConsentCard({ request, now, bridge, onDone }: { request: ConsentRequest; now: number; bridge: SettingsBridge; onDone(): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seconds = Math.max(0, Math.floor((Date.parse(request.expiresAt) - now) / 1000));
  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(null);
    const result = approve ? await bridge.approveConnection(request.code) : await bridge.denyConnection(request.code);
    setBusy(false);
    if (result.ok) onDone();
    else setError(result.error);
  };
  const titleId = `consent-${request.code}`;
  return (
    <section className="consent" role="alertdialog" aria-labelledby={titleId} aria-describedby={`${titleId}-what`}>
      <div className="consent-head">
        <Icon name="key" size={20} />
        <h2 id={titleId}>An app asks to connect to this computer</h2>
      </div>
      <p id={`${titleId}-what`} className="consent-what">
        Approve only if you just connected it yourself and the page in your browser shows the same code.
      </p>
      <div className="consent-code" aria-label="Approval code">
        {request.code}
      </div>
      <dl className="consent-facts">
        <dt>App (as it names itself)</dt>
        <dd>{request.clientName}</dd>
        <dt>Returns to</dt>
        <dd className="mono">{request.redirectHost}</dd>
        <dt>Time left</dt>
        <dd>
          {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')} — then it is denied
        </dd>
      </dl>
      {error ? (
        <p className="consent-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <button type="button" className="button primary" disabled={busy} onClick={() => void decide(true)}>
          Approve {request.code}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void decide(false)}>
          Deny
        </button>
      </div>
    </section>
  );
}
