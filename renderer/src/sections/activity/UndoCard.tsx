/** "Undo these changes": the groups of changes the file and git tools made, newest first, each opened to its files and diffs before it can be undone. */
import { useState } from 'react';
import type { GroupSummary, SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { formatTime } from '../../format';
import { ChangeGroup } from './ChangeGroup';
import { useUndo } from './use-undo';
import './undo.css';

export function UndoCard({ bridge, callsEnded }: { bridge: SettingsBridge; callsEnded: number }) {
  const { list, reload } = useUndo(bridge, callsEnded);
  const [open, setOpen] = useState<string | null>(null);
  const recording = list?.ok ? list.recording : true;
  return (
    <Card
      title="Changes you can undo"
      description="What the file and git tools changed, grouped by client and time, newest first. Commands (shell_exec, process_start) can change anything and are not recorded, so they cannot be undone here."
      actions={
        <button type="button" className="button small" onClick={() => void reload()}>
          Refresh
        </button>
      }
    >
      {!recording ? <p className="hint">Recording is off (Git › Undo): new changes are not kept.</p> : null}
      {list === null ? null : !list.ok ? (
        <p className="field-error">{list.error}</p>
      ) : list.groups.length === 0 ? (
        <p className="empty">No recorded changes yet.</p>
      ) : (
        <ul className="undo-groups" aria-label="Recorded changes">
          {list.groups.map((group) => (
            <li key={group.id} className="undo-group">
              <GroupLine group={group} open={open === group.id} onToggle={() => setOpen(open === group.id ? null : group.id)} />
              {open === group.id ? <ChangeGroup id={group.id} bridge={bridge} onUndone={() => void reload()} /> : null}
            </li>
          ))}
        </ul>
      )}
      {list?.ok && list.dropped.length > 0 ? (
        <p className="hint">
          {list.dropped.length} older group{list.dropped.length === 1 ? ' was' : 's were'} dropped to stay within the journal’s size (Git › Undo), the latest
          from {formatTime(list.dropped[0]!.startedAt)}.
        </p>
      ) : null}
    </Card>
  );
}

function GroupLine({ group, open, onToggle }: { group: GroupSummary; open: boolean; onToggle(): void }) {
  const what = `${group.files} path${group.files === 1 ? '' : 's'}${group.repositories ? `, ${group.repositories} repositor${group.repositories === 1 ? 'y' : 'ies'}` : ''}`;
  return (
    <div className="undo-line">
      <span className="muted small">{formatTime(group.startedAt)}</span>
      <span>
        <span className="mono">{group.client}</span>: {what}
        <span className="muted small"> ({group.tools.join(', ')})</span>
        {group.notKept ? <span className="muted small">, {group.notKept} not restorable</span> : null}
      </span>
      <span className={`pill ${group.state === 'open' ? 'pill-running' : group.state === 'damaged' ? 'pill-bad' : 'pill-ok'}`}>
        {group.state === 'open' ? 'can be undone' : group.state}
      </span>
      <button type="button" className="button small" aria-expanded={open} onClick={onToggle}>
        {open ? 'Hide' : 'Show changes'}
      </button>
    </div>
  );
}
