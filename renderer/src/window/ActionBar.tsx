/** The bar under an editable page: whether anything is unsaved or in the way of saving, and Discard and Save. */
import { Icon } from '../components/Icon';
import type { SaveState } from './use-settings';
import './action-bar.css';

export function ActionBar({
  problems,
  dirty,
  saveState,
  onDiscard,
  onSave,
}: {
  /** How many fields must be fixed before Save can run. */
  problems: number;
  dirty: boolean;
  saveState: SaveState;
  onDiscard(): void;
  onSave(): void;
}) {
  return (
    <footer className="action-bar">
      <div className="action-state" role="status" aria-live="polite">
        {problems > 0 ? (
          <span className="bad">
            <Icon name="warning" size={15} /> Fix {problems} {problems === 1 ? 'problem' : 'problems'} to save
          </span>
        ) : dirty ? (
          <span className="dirty">
            <span className="dot" aria-hidden="true" /> Unsaved changes
          </span>
        ) : (
          <span className="muted">{saveState.kind === 'saving' ? 'Saving…' : 'All changes saved'}</span>
        )}
      </div>
      <div className="action-buttons">
        <button type="button" className="button" disabled={!dirty} onClick={onDiscard}>
          Discard changes
        </button>
        <button type="button" className="button primary" disabled={!dirty || problems > 0 || saveState.kind === 'saving'} onClick={onSave}>
          Save
        </button>
      </div>
    </footer>
  );
}
