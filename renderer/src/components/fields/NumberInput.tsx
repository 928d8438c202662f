/** The text box both number fields use: keeps what was typed, marks and describes errors. */
import type { ReactNode } from 'react';
import { describedBy } from './field-id';

export function NumberInput({
  id,
  text,
  mode,
  error,
  hint,
  disabled,
  onText,
}: {
  id: string;
  text: string;
  mode: 'numeric' | 'decimal';
  error: string | undefined;
  hint: ReactNode;
  disabled: boolean | undefined;
  onText(text: string): void;
}) {
  return (
    <input
      id={id}
      className={`input number${error ? ' invalid' : ''}`}
      inputMode={mode}
      value={text}
      disabled={disabled}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, error, hint)}
      onChange={(event) => onText(event.target.value)}
    />
  );
}
