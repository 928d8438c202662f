/**
 * The live list. What it shows and what "End…" is offered for are the process panel's answers
 * (the running server's ProcessPolicy and the saved file), not rules of this page; an unsaved
 * switch turned off hides the list or the action at once, to be safe.
 */
import { useState } from 'react';
import type { KillSignal, ServerStatus, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { Icon } from '../../components/Icon';
import type { Draft } from '../../draft';
import { ProcessTable } from './ProcessTable';
import { useProcessList } from './use-process-list';
import './running-processes.css';

export function RunningProcessesCard({ grants, status, bridge }: { grants: Draft['process']; status: ServerStatus; bridge: SettingsBridge }) {
  const { filter, setFilter, result, loading, refresh } = useProcessList(bridge, status.state);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const listed = result !== null && result.ok && grants.list ? result : null;
  const canKill = listed !== null && listed.canKill && grants.kill;

  const kill = async (pid: number, signal: KillSignal) => {
    setConfirming(null);
    const outcome = await bridge.killProcess(pid, signal);
    setNotice(outcome.ok ? `Sent ${signal} to process ${pid}.` : outcome.error);
    void refresh();
  };

  return (
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
            <ProcessTable
              processes={listed.processes}
              truncated={listed.truncated}
              canKill={canKill}
              confirming={confirming}
              setConfirming={setConfirming}
              onKill={(pid, signal) => void kill(pid, signal)}
            />
          )}
        </>
      )}
    </Card>
  );
}
