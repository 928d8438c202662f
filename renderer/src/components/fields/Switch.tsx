/** An on/off grant: label and description beside the switch; its warning shows only while it is on. */
import type { ReactNode } from 'react';
import { Warning } from './Warning';
import './switch.css';

export interface SwitchProps {
  id: string;
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  warning?: string | null;
  emphasis?: boolean;
}

export function Switch({ id, label, description, checked, onChange, disabled, warning, emphasis }: SwitchProps) {
  return (
    <div className={`switch-row${emphasis ? ' switch-row-emphasis' : ''}${disabled ? ' is-disabled' : ''}`}>
      <div className="switch-text">
        <label htmlFor={id}>{label}</label>
        {description ? (
          <p className="hint" id={`${id}-hint`}>
            {description}
          </p>
        ) : null}
        {warning && checked ? <Warning>{warning}</Warning> : null}
      </div>
      <input
        id={id}
        className="switch"
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        aria-describedby={description ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
