/** The listed processes: id, name, user and whole command line, and the action column when ending is allowed. */
import type { KillSignal, ProcessRow } from '../../../../main/tray/bridge-api';
import { CommandLine } from './CommandLine';
import { EndAction } from './EndAction';
import './process-table.css';

export function ProcessTable({
  processes,
  truncated,
  canKill,
  confirming,
  setConfirming,
  onKill,
}: {
  processes: ProcessRow[];
  truncated: boolean;
  canKill: boolean;
  /** The process whose "End…" was pressed, waiting for End, Force or Cancel. */
  confirming: number | null;
  setConfirming(pid: number | null): void;
  onKill(pid: number, signal: KillSignal): void;
}) {
  return (
    <div className="table-scroll">
      <table className="table processes" aria-describedby="process-rules">
        <colgroup>
          <col className="col-pid" />
          <col className="col-name" />
          <col className="col-user" />
          <col />
          {canKill ? <col className="col-action" /> : null}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">PID</th>
            <th scope="col">Name</th>
            <th scope="col">User</th>
            <th scope="col">Command line</th>
            {canKill ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {processes.map((p) => (
            <tr key={p.pid}>
              <td className="mono">{p.pid}</td>
              <td className="wrap">{p.command}</td>
              <td className="muted wrap">{p.user ?? '—'}</td>
              <td className="mono wrap">
                <CommandLine process={p} />
              </td>
              {canKill ? (
                <td className="action">
                  <EndAction
                    process={p}
                    confirming={confirming === p.pid}
                    onAsk={() => setConfirming(p.pid)}
                    onCancel={() => setConfirming(null)}
                    onKill={(signal) => onKill(p.pid, signal)}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {truncated ? <p className="hint table-note">Showing the first {processes.length}; use the filter to narrow down.</p> : null}
    </div>
  );
}
