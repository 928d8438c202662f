/** One configured app: its name and Remove, its program path and fixed arguments, and whether the model may add more. */
import { FieldError } from '../../components/fields/FieldError';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import { TextField } from '../../components/fields/TextField';
import type { Draft } from '../../draft';
import type { SectionProps } from '../section-props';
import './apps.css';

export function AppEntry({
  app,
  index,
  errors,
  edit,
}: {
  app: Draft['desktop']['apps'][number];
  index: number;
  errors: SectionProps['errors'];
  edit: SectionProps['edit'];
}) {
  const key = `desktop.apps.${index}`;
  return (
    <div className="app-entry">
      <div className="app-entry-header">
        <span className="app-name" id={fieldId(`${key}.name`)} tabIndex={-1}>
          {app.name}
        </span>
        <button
          type="button"
          className="link-button danger"
          aria-label={`Remove app ${app.name}`}
          onClick={() => edit((d) => void d.desktop.apps.splice(index, 1))}
        >
          Remove
        </button>
      </div>
      <FieldError id={fieldId(`${key}.name`)} message={errors.get(`${key}.name`)} />
      <TextField
        id={fieldId(`${key}.path`)}
        label="Program path"
        value={app.path}
        mono
        error={errors.get(`${key}.path`)}
        onChange={(path) => edit((d) => void (d.desktop.apps[index]!.path = path))}
      />
      <TextField
        id={fieldId(`${key}.args`)}
        label="Arguments"
        value={app.args.join(' ')}
        mono
        hint="Separated by spaces; always passed."
        error={errors.get(`${key}.args`)}
        onChange={(text) => edit((d) => void (d.desktop.apps[index]!.args = text.split(' ').filter((a) => a !== '')))}
      />
      <Switch
        id={fieldId(`${key}.allowExtraArgs`)}
        label="Let the model add arguments"
        checked={app.allowExtraArgs}
        onChange={(on) => edit((d) => void (d.desktop.apps[index]!.allowExtraArgs = on))}
      />
    </div>
  );
}
