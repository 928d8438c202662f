/**
 * The list editor's box for a new entry and its Add button (Enter adds too). A duplicate, or an
 * entry the list's own check refuses, stays in the box with the problem under it.
 */
import { useState } from 'react';
import { Icon } from '../Icon';
import { FieldError } from './FieldError';

export function AddEntry({
  id,
  label,
  items,
  placeholder,
  addLabel,
  disabled,
  mono,
  check,
  onAdd,
}: {
  id: string;
  label: string;
  items: string[];
  placeholder: string | undefined;
  addLabel: string;
  disabled: boolean | undefined;
  mono: boolean;
  check: ((value: string, items: string[]) => string | null) | undefined;
  onAdd(entry: string): void;
}) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const entry = value.trim();
    if (!entry) return;
    const found = items.includes(entry) ? 'already in the list' : (check?.(entry, items) ?? null);
    if (found) return setProblem(found);
    onAdd(entry);
    setValue('');
    setProblem(null);
  };
  return (
    <>
      <label className="add-label" htmlFor={id}>
        {label}
      </label>
      <div className="add-row">
        <input
          id={id}
          className={`input${mono ? ' mono' : ''}${problem ? ' invalid' : ''}`}
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="button" disabled={disabled || !value.trim()} onClick={add}>
          <Icon name="plus" size={15} />
          {addLabel}
        </button>
      </div>
      <FieldError id={id} message={problem ?? undefined} />
    </>
  );
}
