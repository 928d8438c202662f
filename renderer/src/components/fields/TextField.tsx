/** A labelled text box (or a read-only value to copy), with an optional button after it. */
import type { ReactNode } from 'react';
import { describedBy } from './field-id';
import { FieldFrame } from './FieldFrame';

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: ReactNode;
  placeholder?: string;
  type?: 'text' | 'password';
  mono?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  trailing?: ReactNode;
  warning?: string | null;
  className?: string;
}

export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
  type = 'text',
  mono,
  disabled,
  readOnly,
  trailing,
  warning,
  className,
}: TextFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} warning={warning} hint={hint} className={className}>
      <div className="input-row">
        <input
          id={id}
          className={`input${mono ? ' mono' : ''}${error ? ' invalid' : ''}`}
          type={type}
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          readOnly={readOnly}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          onChange={(event) => onChange(event.target.value)}
        />
        {trailing}
      </div>
    </FieldFrame>
  );
}
