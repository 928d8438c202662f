/** Services: the system services the model may check by exact name, and whether it may control them. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';

const SERVICE_NAME = /^[A-Za-z0-9@._:-]{1,128}$/;

export function ServicesSection({ draft, edit, errors, env }: SectionProps) {
  const services = draft.services;
  const manager = env.platform === 'darwin' ? 'launchd' : env.platform === 'win32' ? 'Windows services' : 'systemd';
  return (
    <>
      <Card title="Access" description={`System services (${manager}) the model may check, by exact name. Nothing else is visible.`}>
        <ListEditor
          id={fieldId('services.allowed')}
          label="Allowed services"
          inputLabel="Service name"
          items={services.allowed}
          placeholder={env.platform === 'darwin' ? 'com.example.agent' : env.platform === 'win32' ? 'Spooler' : 'nginx.service'}
          addLabel="Add service"
          empty="No services listed."
          errorFor={(i) => errors.get(`services.allowed.${i}`)}
          onChange={(items) => edit((d) => void (d.services.allowed = items))}
          check={(value) => (SERVICE_NAME.test(value) ? null : 'use letters, digits, @ . _ : - (up to 128)')}
        />
        <Switch
          id={fieldId('services.control')}
          label="Start, stop and restart these services"
          description="Without this, the model can only read their status."
          checked={services.control}
          onChange={(on) => edit((d) => void (d.services.control = on))}
        />
      </Card>
    </>
  );
}
