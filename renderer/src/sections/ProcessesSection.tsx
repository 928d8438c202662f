import { useCallback, useEffect, useState } from 'react';
import type { KillSignal, ProcessListResult } from '../../../main/app/bridge-api';
import { Icon } from '../components/Icon';
import { Card, Switch, fieldId } from '../components/fields';
import type { SectionProps } from './types';

export function ProcessesSection({ draft, edit, status, bridge }: SectionProps) {
  const [filter, setFilter] = useState('');
  const [result, setResult] = useState<ProcessListResult | null>(null);
  const [loading, setLoading] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    setLoading(true);
    try {
      setResult(await bridge.listProcesses(filter.trim() || undefined));
    } finally {
      setLoading(false);
    }
  }, [bridge, filter]);

  useEffect(() => {
    void refresh();
    // Refresh when the server (and so the granted switches) changes; typing uses the button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status.state]);

  // The panel decides (running server and saved file); an unsaved switch turned off hides the action too.
  const canKill = result !== null && result.ok && result.canKill && draft.process.kill;

  const kill = async (pid: number, signal: KillSignal) => {
    setConfirming(null);
    const outcome = await bridge.killProcess(pid, signal);
    setNotice(outcome.ok ? `Sent ${signal} to process ${pid}.` : outcome.error);
    void refresh();
  };

  return (
    <>
      <Card title="Permissions" description="What process tools may do. The list below follows the running server’s settings.">
        <Switch
          id={fieldId('process.list')}
          label="List processes"
          description="Process ids, owners and command lines."
          checked={draft.process.list}
          onChange={(on) => edit((d) => void (d.process.list = on))}
        />
        <Switch
          id={fieldId('process.kill')}
          label="End processes"
          description="Send signals to any process your account may signal."
          checked={draft.process.kill}
          onChange={(on) => edit((d) => void (d.process.kill = on))}
        />
      </Card>

      <Card
        title="Running processes"
        actions={
          <button type="button" className="button" onClick={() => void refresh()} disabled={loading}>
            <Icon name="refresh" size={15} />
            {loading ? 'Refreshing…' : 'Refresh'}
          </button>
        }
      >
        <form
          className="filter-row"
          onSubmit={(event) => {
            event.preventDefault();
            void refresh();
          }}
        >
          <label htmlFor="process-filter">Filter</label>
          <input id="process-filter" className="input" value={filter} placeholder="name or argument" onChange={(event) => setFilter(event.target.value)} />
        </form>
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        {result === null ? (
          <p className="empty">Loading…</p>
        ) : !result.ok ? (
          <p className="empty">{result.error}</p>
        ) : result.processes.length === 0 ? (
          <p className="empty">No matching processes.</p>
        ) : (
          <div className="table-scroll">
            <table className="table processes">
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
                {result.processes.map((p) => (
                  <tr key={p.pid}>
                    <td className="mono">{p.pid}</td>
                    <td className="ellipsis" title={p.command}>
                      {p.command}
                    </td>
                    <td className="muted ellipsis">{p.user ?? '—'}</td>
                    <td className="mono ellipsis" title={p.args.join(' ')}>
                      {p.args.length ? p.args.join(' ') : <span className="muted">—</span>}
                    </td>
                    {canKill ? (
                      <td className="action">
                        {confirming === p.pid ? (
                          <span className="confirm">
                            <button type="button" className="link-button danger" onClick={() => void kill(p.pid, 'SIGTERM')}>
                              End {p.pid}
                            </button>
                            <button type="button" className="link-button danger" onClick={() => void kill(p.pid, 'SIGKILL')}>
                              Force
                            </button>
                            <button type="button" className="link-button" onClick={() => setConfirming(null)}>
                              Cancel
                            </button>
                          </span>
                        ) : (
                          <button type="button" className="link-button" aria-label={`End process ${p.pid} (${p.command})`} onClick={() => setConfirming(p.pid)}>
                            End…
                          </button>
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            {result.truncated ? <p className="hint">Showing the first {result.processes.length}; use the filter to narrow down.</p> : null}
          </div>
        )}
      </Card>
    </>
  );
}
