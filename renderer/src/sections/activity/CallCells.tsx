/** What the live list and the audit log share: the header, and the tool, target and outcome cells of one call. */
import { Breakable } from '../../components/Breakable';

export function CallsHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Time</th>
        <th scope="col">Tool</th>
        <th scope="col" className="target">
          Target
        </th>
        <th scope="col">Outcome</th>
        <th scope="col" className="num">
          Duration
        </th>
      </tr>
    </thead>
  );
}

export function ToolCell({ tool, client }: { tool: string; client: string | null }) {
  return (
    <td className="shrink">
      <div className="mono">{tool}</div>
      {client ? <div className="muted small">by {client}</div> : null}
    </td>
  );
}

export function TargetCell({ target }: { target: string }) {
  return <td className="mono wrap">{target ? <Breakable text={target} /> : <span className="muted">—</span>}</td>;
}

export function OutcomeCell({ outcome }: { outcome: string }) {
  const [kind, label] = outcome === 'ok' ? ['pill-ok', 'OK'] : outcome === 'running' ? ['pill-running', 'Running'] : ['pill-bad', outcome];
  return (
    <td className="shrink">
      <span className={`pill ${kind}`}>{label}</span>
    </td>
  );
}
