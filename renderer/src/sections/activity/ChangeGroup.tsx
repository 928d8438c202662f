/** One group's files and diffs (what undo would do), then "Undo these changes" and what it did: what it left and why. */
import { useEffect, useState } from 'react';
import type { GroupDetail, SettingsBridge, UndoOutcome } from '../../../../main/tray/bridge-api';
import { Breakable } from '../../components/Breakable';
import { ResultBox } from '../../components/ResultBox';

export function ChangeGroup({ id, bridge, onUndone }: { id: string; bridge: SettingsBridge; onUndone(): void }) {
  const [detail, setDetail] = useState<GroupDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<UndoOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void bridge.showChanges(id).then((r) => (r.ok ? setDetail(r.group) : setError(r.error)));
  }, [bridge, id]);
  if (error) return <p className="field-error">{error}</p>;
  if (!detail) return <p className="muted small">Loading…</p>;
  const done = outcome ?? detail.undo ?? null;
  const undo = async () => {
    setBusy(true);
    const result = await bridge.undoChanges(id);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setOutcome(result.outcome);
    // What the paths are now: the restored ones no longer differ from before.
    const now = await bridge.showChanges(id);
    if (now.ok) setDetail(now.group);
    onUndone();
  };
  return (
    <div className="change-group">
      <ul className="changes" aria-label="Changed paths">
        {detail.changes.map((c) => (
          <li key={c.path}>
            <span className={`change change-${c.change}`}>{c.change}</span> <Breakable text={c.path} />
            {c.mode ? (
              <span className="muted small">
                {' '}
                mode {c.mode.before} → {c.mode.after}
              </span>
            ) : null}
            {!c.kept ? <div className="field-error">Not restorable: {c.why}</div> : null}
            {c.partly?.length ? <div className="warning-text small">Not put back with it: {c.partly.join('; ')}</div> : null}
            {c.changedSince && !done ? <div className="warning-text small">Changed since the model changed it: undo leaves it as it is.</div> : null}
            {c.diff && !c.changedSince ? <pre className="diff">{c.diff}</pre> : null}
          </li>
        ))}
        {detail.repositoryChanges.map((r) => (
          <li key={r.path}>
            <span className="change change-modified">git</span> <Breakable text={r.path} />{' '}
            <span className="muted small">
              ({r.tools.join(', ')}): {head(r.before)} → {head(r.after)}
              {r.before.index !== r.after.index ? ', staged changes' : ''}
            </span>
          </li>
        ))}
      </ul>
      {done ? <Outcome outcome={done} /> : null}
      {done && done.skipped.some((s) => s.retry) ? (
        <div className="button-row">
          <button type="button" className="button" disabled={busy} onClick={() => void undo()}>
            Try the failed paths again
          </button>
          <span className="hint">They were left as they were. Fix what is said (a folder made read-only, a full disk) first.</span>
        </div>
      ) : done ? null : (
        <div className="button-row">
          <button type="button" className="button danger" disabled={busy} onClick={() => void undo()}>
            Undo these changes
          </button>
          <span className="hint">A file changed since the model changed it is left as it is, and listed.</span>
        </div>
      )}
    </div>
  );
}

function head(state: GroupDetail['repositoryChanges'][number]['before']): string {
  return `${state.headRef?.replace(/^refs\/heads\//, '') ?? 'detached'} ${state.commit?.slice(0, 8) ?? '(no commit)'}`;
}

function Outcome({ outcome }: { outcome: UndoOutcome }) {
  const left = [...outcome.conflicts, ...outcome.skipped];
  const repos = outcome.repositories.filter((r) => r.left.length > 0);
  return (
    <ResultBox live label="What undo did">
      <div className="undo-outcome">
        <div>
          Put back {outcome.restored.length} path{outcome.restored.length === 1 ? '' : 's'}
          {outcome.repositories.length - repos.length > 0 ? ` and the refs and index of ${outcome.repositories.length - repos.length} repository` : ''}.
        </div>
        {(outcome.notes ?? []).map((n, i) => (
          <div key={`note-${i}`} className="small">
            Put back <span className="mono">{n.path}</span>, but {n.why}
          </div>
        ))}
        {left.map((l) => (
          <div key={l.path} className="small">
            Left <span className="mono">{l.path}</span>: {l.why}
          </div>
        ))}
        {repos.map((r) => (
          <div key={r.path} className="small">
            Left in <span className="mono">{r.path}</span>: {r.left.join(', ')}
          </div>
        ))}
      </div>
    </ResultBox>
  );
}
