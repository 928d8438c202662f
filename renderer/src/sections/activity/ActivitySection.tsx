/** Activity: the recent tool calls, newest first, with whole targets that wrap at separators; undo of what the tools changed; then the searchable audit log. */
import type { ActivityEntry, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { formatDuration, formatTime } from '../../format';
import { AuditLogCard } from './AuditLogCard';
import { CallsHead, OutcomeCell, TargetCell, ToolCell } from './CallCells';
import { UndoCard } from './UndoCard';
import './activity.css';

export function ActivitySection({ entries, bridge }: { entries: ActivityEntry[]; bridge: SettingsBridge }) {
  const newestFirst = [...entries].reverse();
  // The newest call that ended: the undo list reloads after each change a tool made.
  const ended = Math.max(0, ...entries.filter((e) => e.outcome !== 'running').map((e) => e.seq));
  return (
    <>
      <UndoCard bridge={bridge} callsEnded={ended} />
      <Card
        title="Recent tool calls"
        description="The last 200 calls, newest first, kept in memory only. Contents, output, environment and tokens are never recorded."
      >
        {newestFirst.length === 0 ? (
          <p className="empty">No tool calls yet. They appear here as they happen.</p>
        ) : (
          <div className="table-scroll">
            <table className="table activity">
              <CallsHead />
              <tbody>
                {newestFirst.map((entry) => (
                  <tr key={entry.seq}>
                    <td className="shrink muted">{formatTime(entry.time)}</td>
                    <ToolCell tool={entry.tool} client={entry.client} />
                    <TargetCell target={entry.target} />
                    <OutcomeCell outcome={entry.outcome} />
                    <td className="shrink num muted">{entry.durationMs === null ? '…' : formatDuration(entry.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <AuditLogCard bridge={bridge} />
    </>
  );
}
