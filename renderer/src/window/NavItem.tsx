/**
 * A page in the sidebar, with what needs attention there: its problem count, else a dot for
 * unsaved changes; a live dot while calls run (Activity) or requests wait (Connected clients).
 */
import { Icon } from '../components/Icon';
import type { SectionInfo } from './sections';

export function NavItem({
  section,
  current,
  problems,
  unsaved,
  live,
  onSelect,
}: {
  section: SectionInfo;
  current: boolean;
  problems: number;
  unsaved: boolean;
  /** What the live dot says, or null for none. */
  live: string | null;
  onSelect(): void;
}) {
  return (
    <li>
      <button type="button" className={`nav-item${current ? ' active' : ''}`} aria-current={current ? 'page' : undefined} onClick={onSelect}>
        <Icon name={section.icon} />
        <span>{section.title}</span>
        {problems > 0 ? (
          <span className="nav-badge" aria-label={`${problems} ${problems === 1 ? 'problem' : 'problems'}`}>
            {problems}
          </span>
        ) : unsaved ? (
          <span className="nav-unsaved" aria-label="unsaved changes" title="Unsaved changes" />
        ) : null}
        {live ? <span className="nav-live" aria-label={live} /> : null}
      </button>
    </li>
  );
}
