/** The active profile (stdio and every caller with no binding; the tray switches it too) and the static token's. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { SelectField } from '../../components/fields/SelectField';
import type { Draft } from '../../draft';
import type { SectionProps } from '../section-props';

export function ActiveProfileCard({ profiles, names, errors, edit }: Pick<SectionProps, 'errors' | 'edit'> & { profiles: Draft['profiles']; names: string[] }) {
  const options = names.map((name) => ({ value: name, label: name }));
  return (
    <Card title="Active profile" description="A profile narrows what the other pages grant, never widens it. Changes apply when the server restarts.">
      <div className="grid-2">
        <SelectField
          id={fieldId('profiles.active')}
          label="Active profile"
          value={profiles.active}
          options={options}
          error={errors.get('profiles.active')}
          hint="Local apps (stdio) and every client not bound below."
          onChange={(value) => edit((d) => void (d.profiles.active = value))}
        />
        <SelectField
          id={fieldId('profiles.token')}
          label="The token's profile"
          value={profiles.token}
          options={[{ value: '', label: 'The active profile' }, ...options]}
          error={errors.get('profiles.token')}
          hint="Clients that connect with the static bearer token."
          onChange={(value) => edit((d) => void (d.profiles.token = value))}
        />
      </div>
    </Card>
  );
}
