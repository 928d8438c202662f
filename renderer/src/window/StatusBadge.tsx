/** The server's state under the brand (running with its tool count, paused, not running...), announced as it changes. */
import type { ServerStatus } from '../../../main/tray/bridge-api';
import './status.css';

export function StatusBadge({ status }: { status: ServerStatus }) {
  const [label, tone] =
    status.state === 'running'
      ? [`Running · ${status.toolCount} ${status.toolCount === 1 ? 'tool' : 'tools'}`, 'ok']
      : status.state === 'paused'
        ? ['Paused', 'warn']
        : status.state === 'error'
          ? ['Not running', 'bad']
          : status.state === 'starting'
            ? ['Starting…', 'muted']
            : ['Stopped', 'muted'];
  return (
    <div className={`status status-${tone}`} role="status">
      <span className="status-dot" aria-hidden="true" />
      {label}
    </div>
  );
}

/** Saved settings the running server does not have yet. */
export function RestartPending() {
  return (
    <div className="status status-warn restart-pending" title="Saved settings take effect when the server restarts.">
      <span className="status-dot" aria-hidden="true" />
      Restart pending
    </div>
  );
}
