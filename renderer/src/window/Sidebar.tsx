/** The sidebar: the brand with the server's state, the pages, and the config file's path. */
import type { SectionId, ServerStatus } from '../../../main/tray/bridge-api';
import { sectionForField } from '../../../main/tray/sections';
import { Icon } from '../components/Icon';
import type { FieldErrors } from '../draft';
import { NavItem } from './NavItem';
import { SECTIONS } from './sections';
import { RestartPending, StatusBadge } from './StatusBadge';
import './sidebar.css';

export function Sidebar({
  status,
  restartPending,
  section,
  onSelect,
  errors,
  unsavedIn,
  callsRunning,
  requestsWaiting,
  configPath,
}: {
  status: ServerStatus;
  restartPending: boolean;
  section: SectionId;
  onSelect(section: SectionId): void;
  errors: FieldErrors;
  unsavedIn: Set<SectionId>;
  callsRunning: boolean;
  requestsWaiting: boolean;
  configPath: string | undefined;
}) {
  const errorCount = (id: SectionId) => [...errors.keys()].filter((key) => sectionForField(key.split('.')) === id).length;
  const live = (id: SectionId) =>
    id === 'activity' && callsRunning ? 'calls running' : id === 'clients' && requestsWaiting ? 'requests waiting for approval' : null;
  return (
    <nav className="sidebar" aria-label="Settings sections">
      <div className="brand">
        <div className="brand-mark" aria-hidden="true">
          <Icon name="connection" size={18} />
        </div>
        <div>
          <div className="brand-name">ChatGPT Computer MCP</div>
          <StatusBadge status={status} />
          {restartPending ? <RestartPending /> : null}
        </div>
      </div>
      <ul className="nav">
        {SECTIONS.map((s) => (
          <NavItem
            key={s.id}
            section={s}
            current={s.id === section}
            problems={s.id === 'activity' || s.id === 'clients' ? 0 : errorCount(s.id)}
            unsaved={unsavedIn.has(s.id)}
            live={live(s.id)}
            onSelect={() => onSelect(s.id)}
          />
        ))}
      </ul>
      <div className="sidebar-footer">
        <div className="muted small">Config file</div>
        <div className="mono small path" title={configPath}>
          {configPath ?? '…'}
        </div>
      </div>
    </nav>
  );
}
