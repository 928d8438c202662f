/** Seconds in the field, milliseconds in the config. */
import { NumberField, type NumberFieldProps } from './NumberField';

export function DurationField(props: Omit<NumberFieldProps, 'suffix'>) {
  const { value, onChange } = props;
  return (
    <NumberField
      {...props}
      suffix="seconds"
      value={Number.isFinite(value) ? value / 1000 : value}
      onChange={(s) => onChange(Number.isFinite(s) ? Math.round(s * 1000) : s)}
    />
  );
}
