/**
 * The frame every labelled field shares: a visible <label> tied to the control, the control
 * row, then its error, warning and hint (the hint as `${id}-hint`, which the control describes itself with).
 */
import type { ReactNode } from 'react';
import { FieldError } from './FieldError';
import { Warning } from './Warning';
import './field.css';

export function FieldFrame({
  id,
  label,
  error,
  warning,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  warning?: string | null | undefined;
  hint?: ReactNode;
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError id={id} message={error} />
      {warning ? <Warning>{warning}</Warning> : null}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
