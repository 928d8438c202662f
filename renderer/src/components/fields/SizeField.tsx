/** A byte size typed in KiB or MiB: bytes in the config, the unit only in the field. */
import { useState } from 'react';
import { SIZE_UNITS, pickSizeUnit } from '../../format';
import { FieldFrame } from './FieldFrame';
import { NumberInput } from './NumberInput';
import type { NumberFieldProps } from './NumberField';
import { parseNumber, useNumberText } from './number-text';

export function SizeField({ id, label, value, onChange, error, hint, disabled, className }: Omit<NumberFieldProps, 'suffix'>) {
  const [unit, setUnit] = useState(() => pickSizeUnit(value));
  const toText = (bytes: number) => String(Math.round((bytes / unit.factor) * 100) / 100);
  const [text, setText] = useNumberText(value, toText, (t) => Math.round(parseNumber(t) * unit.factor));
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <div className="input-row">
        <NumberInput
          id={id}
          text={text}
          mode="decimal"
          error={error}
          hint={hint}
          disabled={disabled}
          onText={(typed) => {
            setText(typed);
            const n = parseNumber(typed);
            onChange(Number.isFinite(n) ? Math.round(n * unit.factor) : n);
          }}
        />
        <select
          className="input unit"
          aria-label={`${label} unit`}
          value={unit.label}
          disabled={disabled}
          onChange={(event) => {
            const next = SIZE_UNITS.find((u) => u.label === event.target.value) ?? SIZE_UNITS[0];
            setUnit(next);
            const n = parseNumber(text);
            if (Number.isFinite(n)) onChange(Math.round(n * next.factor));
          }}
        >
          {SIZE_UNITS.map((u) => (
            <option key={u.label} value={u.label}>
              {u.label}
            </option>
          ))}
        </select>
      </div>
    </FieldFrame>
  );
}
