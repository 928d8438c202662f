/** The audit log's matching calls, newest first: when, what, by whom, on what, how it ended. */
import type { AuditRow } from '../../../../main/tray/bridge-api';
import { CallsHead, OutcomeCell, TargetCell, ToolCell } from './CallCells';
import { formatDuration, formatTime } from '../../format';

export function AuditTable({ rows }: { rows: AuditRow[] }) {
  return (
    <div className="table-scroll">
      <table className="table activity" aria-label="Recorded tool calls">
        <CallsHead />
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td className="shrink muted">
                <div>{new Date(row.time).toLocaleDateString()}</div>
                <div>{formatTime(row.time)}</div>
              </td>
              <ToolCell tool={row.tool} client={row.client} />
              <TargetCell target={row.target} />
              <OutcomeCell outcome={row.outcome} />
              <td className="shrink num muted">{formatDuration(row.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
