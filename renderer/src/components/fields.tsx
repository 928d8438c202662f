/**
 * Form controls with the window's conventions built in: a visible <label> tied to every
 * control, errors rendered right under the field (and announced, and linked with
 * aria-describedby), one-line warnings for dangerous grants, and disabled states that say why.
 */
import { useId, useState, type ReactNode } from 'react';
import { Icon } from './Icon';
import { SIZE_UNITS, pickSizeUnit } from '../format';

export function fieldId(key: string): string {
  return `field-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

export function Card({
  title,
  description,
  children,
  actions,
  muted,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  muted?: boolean;
}) {
  const id = useId();
  return (
    <section className={`card${muted ? ' card-muted' : ''}`} aria-labelledby={id}>
      <header className="card-header">
        <div>
          <h2 id={id}>{title}</h2>
          {description ? <p className="card-description">{description}</p> : null}
        </div>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}

export function Warning({ children }: { children: ReactNode }) {
  return (
    <p className="warning" role="note">
      <Icon name="warning" size={15} />
      <span>{children}</span>
    </p>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={`${id}-error`} role="alert">
      {message}
    </p>
  );
}

function describedBy(id: string, error: string | undefined, hint: ReactNode | undefined): string | undefined {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/** The frame every labelled field shares: label, the control row, its error, warning and hint. */
function FieldFrame({
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

/** Keeps what the person typed, even when it is not a number yet; reports NaN until it is. */
function useNumberText(value: number, toText: (n: number) => string, parse: (t: string) => number) {
  const [text, setText] = useState(() => (Number.isFinite(value) ? toText(value) : ''));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    // Follow outside changes (revert, load) in the same render, so the field never shows the old
    // text next to a status that already says the change is gone; the person's own typing sets
    // both the text and the value, so it is left as typed.
    setSeen(value);
    if (!Object.is(parse(text), value) && Number.isFinite(value)) setText(toText(value));
  }
  return [text, setText] as const;
}

const parseNumber = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN);

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

/** The text box both number fields use: keeps what was typed, marks and describes errors. */
function NumberInput({
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

/** Seconds in the field, milliseconds in the config. */
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

/** A byte size typed in KiB or MiB. */
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
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const entry = value.trim();
    if (!entry) return;
    const found = items.includes(entry) ? 'already in the list' : (check?.(entry, items) ?? null);
    if (found) return setProblem(found);
    onChange([...items, entry]);
    setValue('');
    setProblem(null);
  };
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
      <label className="add-label" htmlFor={id}>
        {inputLabel}
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
      {hint ? <p className="hint">{hint}</p> : null}
    </div>
  );
}
