/** Activity: the recent tool calls, newest first, with whole targets that wrap at separators. */
import type { ActivityEntry, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Breakable } from '../../components/Breakable';
import { Card } from '../../components/Card';
import { formatDuration, formatTime } from '../../format';
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
              <tbody>
                {newestFirst.map((entry) => (
                  <tr key={entry.seq}>
                    <td className="shrink muted">{formatTime(entry.time)}</td>
                    <td className="shrink">
                      <div className="mono">{entry.tool}</div>
                      {entry.client ? <div className="muted small">by {entry.client}</div> : null}
                    </td>
                    <td className="mono wrap">{entry.target ? <Breakable text={entry.target} /> : <span className="muted">—</span>}</td>
                    <td className="shrink">
                      <span className={`pill ${entry.outcome === 'ok' ? 'pill-ok' : entry.outcome === 'running' ? 'pill-running' : 'pill-bad'}`}>
                        {entry.outcome === 'ok' ? 'OK' : entry.outcome === 'running' ? 'Running' : entry.outcome}
                      </span>
                    </td>
                    <td className="shrink num muted">{entry.durationMs === null ? '…' : formatDuration(entry.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
