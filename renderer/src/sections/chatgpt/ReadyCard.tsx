/**
 * Step 4: the connection's state, green only when the tunnel client says it is ready and this
 * server answered through the token the tunnel sends; then its facts and the client's recent output.
 */
import type { TunnelState, TunnelStatus } from '../../../../main/tunnel/status';
import { Card } from '../../components/Card';
import './tunnel-state.css';

const TONE: Record<TunnelState, 'ok' | 'warn' | 'bad' | 'muted' | 'info'> = { ready: 'ok', starting: 'info', degraded: 'warn', error: 'bad', stopped: 'muted' };
const LABEL: Record<TunnelState, string> = { ready: 'Ready', starting: 'Connecting…', degraded: 'Degraded', error: 'Error', stopped: 'Not connected' };

export function ReadyCard({ tunnel }: { tunnel: TunnelStatus | undefined }) {
  const state: TunnelState = tunnel?.state ?? 'stopped';
  return (
    <Card title="4. Ready" description="Green only when the tunnel client says it is ready and this server answered through the same token the tunnel sends.">
      <div className={`tunnel-state tunnel-${TONE[state]}`} role="status" aria-live="polite" aria-label="ChatGPT connection">
        <span className="status-dot" aria-hidden="true" />
        <strong>{LABEL[state]}</strong>
        {tunnel?.reason && state !== 'ready' ? <span className="tunnel-reason">{tunnel.reason}</span> : null}
      </div>
      {tunnel && tunnel.state !== 'stopped' ? (
        <dl className="tunnel-facts">
          <dt>Tunnel</dt>
          <dd className="mono">{tunnel.tunnelId ?? '—'}</dd>
          <dt>Client readiness</dt>
          <dd>{tunnel.readiness ?? '—'}</dd>
          <dt>Tools through the tunnel</dt>
          <dd>{tunnel.toolCount ?? '—'}</dd>
          <dt>Client page</dt>
          <dd className="mono">{tunnel.healthUrl ? `${tunnel.healthUrl}/ui` : '—'}</dd>
          <dt>Restarts</dt>
          <dd>{tunnel.restarts}</dd>
        </dl>
      ) : null}
      {tunnel && tunnel.log.length > 0 ? (
        <details className="tunnel-log" open={state === 'error'}>
          <summary>Recent output of the tunnel client (key and token hidden)</summary>
          <pre>
            {tunnel.log
              .slice(-12)
              .map((line) => `${line.stream === 'stderr' ? '! ' : ''}${line.text}`)
              .join('\n')}
          </pre>
        </details>
      ) : null}
    </Card>
  );
}
