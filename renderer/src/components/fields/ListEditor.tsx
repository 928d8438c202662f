/** An editable list of strings (hosts, patterns, programs): its entries with Remove, then a box to add one. */
import type { ReactNode } from 'react';
import { AddEntry } from './AddEntry';
import { Warning } from './Warning';
import './field.css';
import './list-editor.css';

export interface ListEditorProps {
  id: string;
  label: string;
  /** Label of the text box for a new entry. */
  inputLabel: string;
  items: string[];
  onChange(items: string[]): void;
  placeholder?: string;
  addLabel?: string;
  empty: ReactNode;
  errorFor?(index: number): string | undefined;
  warning?: string | null;
  hint?: ReactNode;
  disabled?: boolean;
  mono?: boolean;
  /** Checks a new entry before it is added; returns the problem or null. */
  check?(value: string, items: string[]): string | null;
}

export function ListEditor({
  id,
  label,
  inputLabel,
  items,
  onChange,
  placeholder,
  addLabel = 'Add',
  empty,
  errorFor,
  warning,
  hint,
  disabled,
  mono = true,
  check,
}: ListEditorProps) {
  return (
    <div className={`list-editor${disabled ? ' is-disabled' : ''}`} role="group" aria-labelledby={`${id}-label`}>
      <div className="list-editor-label" id={`${id}-label`}>
        {label}
      </div>
      {items.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <ul className="list" aria-label={label}>
          {items.map((item, index) => {
            const error = errorFor?.(index);
            return (
              <li key={`${item}-${index}`} className={`list-item${error ? ' invalid' : ''}`}>
                <span className={mono ? 'mono' : undefined}>{item}</span>
                {error ? <span className="field-error inline">{error}</span> : null}
                <button
                  type="button"
                  className="link-button danger"
                  aria-label={`Remove ${item}`}
                  disabled={disabled}
                  onClick={() => onChange(items.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {warning ? <Warning>{warning}</Warning> : null}
      <AddEntry
        id={id}
        label={inputLabel}
        items={items}
        placeholder={placeholder}
        addLabel={addLabel}
        disabled={disabled}
        mono={mono}
        check={check}
        onAdd={(entry) => onChange([...items, entry])}
      />
      {hint ? <p className="hint">{hint}</p> : null}
    </div>
  );
}
