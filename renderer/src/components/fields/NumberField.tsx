/** A labelled whole number (a port, a count), with an optional unit after it. */
import type { ReactNode } from 'react';
import { FieldFrame } from './FieldFrame';
import { NumberInput } from './NumberInput';
import { parseNumber, useNumberText } from './number-text';

export interface NumberFieldProps {
  id: string;
  label: string;
  value: number;
  onChange(value: number): void;
  error?: string | undefined;
  hint?: ReactNode;
  suffix?: string;
  disabled?: boolean;
  className?: string;
}

export function NumberField({ id, label, value, onChange, error, hint, suffix, disabled, className }: NumberFieldProps) {
  const [text, setText] = useNumberText(value, String, parseNumber);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <div className="input-row">
        <NumberInput
          id={id}
          text={text}
          mode="numeric"
          error={error}
          hint={hint}
          disabled={disabled}
          onText={(typed) => {
            setText(typed);
            onChange(parseNumber(typed));
          }}
        />
        {suffix ? <span className="suffix">{suffix}</span> : null}
      </div>
    </FieldFrame>
  );
}
