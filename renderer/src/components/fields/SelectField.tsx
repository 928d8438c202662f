/** A labelled choice among fixed options. */
import type { ReactNode } from 'react';
import { describedBy } from './field-id';
import { FieldFrame } from './FieldFrame';

export interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
}

export function SelectField<T extends string>({ id, label, value, options, onChange, error, hint, className }: SelectFieldProps<T>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <select
        id={id}
        className={`input${error ? ' invalid' : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
