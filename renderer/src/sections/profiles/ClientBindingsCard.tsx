/** Each OAuth client's profile: the connected ones, and any binding left for a client no longer connected. */
import type { ConnectedClient } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { SelectField } from '../../components/fields/SelectField';
import type { SectionProps } from '../section-props';

export function ClientBindingsCard({
  bindings,
  clients,
  names,
  errors,
  edit,
}: Pick<SectionProps, 'errors' | 'edit'> & { bindings: Record<string, string>; clients: ConnectedClient[]; names: string[] }) {
  const known = new Set(clients.map((c) => c.id));
  const rows = [
    ...clients.map((c) => ({ id: c.id, label: `${c.name} (${c.redirectHosts.join(', ') || c.id})` })),
    ...Object.keys(bindings)
      .filter((id) => !known.has(id))
      .map((id) => ({ id, label: `${id} (not connected)` })),
  ];
  const options = [{ value: '', label: 'The active profile' }, ...names.map((name) => ({ value: name, label: name }))];
  const bind = (id: string, name: string) =>
    edit((d) => {
      if (name) d.profiles.clients[id] = name;
      else delete d.profiles.clients[id];
    });
  return (
    <Card title="Apps connected with OAuth" description="Give a phone's connector “Read-only” and your desktop's “Coding”: each request's credential decides.">
      {rows.length === 0 ? <p className="hint">No app has connected with OAuth yet (see Connected clients).</p> : null}
      <div className="grid-2">
        {rows.map((row) => (
          <SelectField
            key={row.id}
            id={fieldId(`profiles.clients.${row.id}`)}
            label={row.label}
            value={bindings[row.id] ?? ''}
            options={options}
            error={errors.get(`profiles.clients.${row.id}`)}
            onChange={(name) => bind(row.id, name)}
          />
        ))}
      </div>
    </Card>
  );
}
