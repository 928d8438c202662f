/**
 * Process permissions and the live list. What the list shows and what "End…" is offered for
 * are the process panel's answers (the running server's ProcessPolicy and the saved file), not
 * rules of this page: a row is endable only when the panel checked it against process.kill's
 * rules. An unsaved switch turned off hides the list or the action at once, to be safe.
 */
import { useCallback, useEffect, useState } from 'react';
import type { KillSignal, ProcessListResult, ProcessRow } from '../../../main/tray/bridge-api';
import { Breakable } from '../components/Breakable';
import { Icon } from '../components/Icon';
import { Card, Switch, fieldId } from '../components/fields';
import type { SectionProps } from './types';

export function ProcessesSection({ draft, edit, env, status, bridge }: SectionProps) {
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

  const listed = result !== null && result.ok && draft.process.list ? result : null;
  const canKill = listed !== null && listed.canKill && draft.process.kill;

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
          description="Process ids, owners and command lines, with passwords and tokens in command lines hidden."
          checked={draft.process.list}
          onChange={(on) => edit((d) => void (d.process.list = on))}
        />
        <Switch
          id={fieldId('process.kill')}
          label="End processes"
          description="Send SIGTERM or SIGKILL. Never to this app, the programs that started it, process 1 or kernel threads."
          checked={draft.process.kill}
          onChange={(on) => edit((d) => void (d.process.kill = on))}
        />
        <Switch
          id={fieldId('process.ownOnly')}
          label="Only my processes"
          description={
            env.platform === 'win32'
              ? 'List and end only processes of your own account. Windows does not report owners cheaply, so with this on no process is listed or ended.'
              : 'List and end only processes of your own account; other users’ processes stay invisible.'
          }
          checked={draft.process.ownOnly}
          disabled={!draft.process.list && !draft.process.kill}
          onChange={(on) => edit((d) => void (d.process.ownOnly = on))}
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
        ) : !listed ? (
          <p className="empty">Process listing is turned off here; save to make it so for the server too.</p>
        ) : (
          <>
            <p className="hint" id="process-rules">
              {canKill
                ? `“End…” is offered for ${listed.killable ?? 'the processes the rules allow'}.`
                : listed.canKill
                  ? 'Ending processes is turned off here; save to make it so for the server too.'
                  : 'Ending processes is off for the running server, so nothing can be ended from here.'}
            </p>
            {listed.processes.length === 0 ? (
              <p className="empty">No matching processes.</p>
            ) : (
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
                    {listed.processes.map((p) => (
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
                              onKill={(signal) => void kill(p.pid, signal)}
                            />
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
                {listed.truncated ? <p className="hint table-note">Showing the first {listed.processes.length}; use the filter to narrow down.</p> : null}
              </div>
            )}
          </>
        )}
      </Card>
    </>
  );
}

/** The whole command line; a process without one (kernel threads, some system processes) shows its name the way ps does. */
function CommandLine({ process }: { process: ProcessRow }) {
  if (process.args.length > 0) return <Breakable text={process.args.join(' ')} />;
  return (
    <span className="muted" title="No command line: kernel threads and some system processes have none">
      [{process.command}]
    </span>
  );
}

function EndAction({
  process,
  confirming,
  onAsk,
  onCancel,
  onKill,
}: {
  process: ProcessRow;
  confirming: boolean;
  onAsk(): void;
  onCancel(): void;
  onKill(signal: KillSignal): void;
}) {
  if (!process.endable) {
    const why = `This process ${process.protectedReason ?? 'cannot be ended'}.`;
    return (
      <span className="protected" title={why}>
        Protected<span className="visually-hidden">: {why}</span>
      </span>
    );
  }
  if (confirming) {
    return (
      <span className="confirm">
        <button type="button" className="link-button danger" onClick={() => onKill('SIGTERM')}>
          End {process.pid}
        </button>
        <button type="button" className="link-button danger" onClick={() => onKill('SIGKILL')}>
          Force
        </button>
        <button type="button" className="link-button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <button type="button" className="link-button" aria-label={`End process ${process.pid} (${process.command})`} onClick={onAsk}>
      End…
    </button>
  );
}
