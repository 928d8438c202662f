/** Desktop: the display master switch, what the model may do with it, and the apps it may launch. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import { WARNINGS } from '../../dangers';
import type { SectionProps } from '../section-props';
import { AddAppForm } from './AddAppForm';
import { AppEntry } from './AppEntry';
import { CapabilitiesCard } from './CapabilitiesCard';

export function DesktopSection({ draft, edit, errors }: SectionProps) {
  const desktop = draft.desktop;
  const gated = !desktop.hostDisplayAccess;
  return (
    <>
      <Card
        title="Display access"
        description="The master switch for everything on this page. While it is off the model gets nothing here, and commands run without access to your desktop session."
      >
        <Switch
          id={fieldId('desktop.hostDisplayAccess')}
          label="Allow access to this computer’s display"
          checked={desktop.hostDisplayAccess}
          emphasis
          warning={WARNINGS.hostDisplay}
          onChange={(on) => edit((d) => void (d.desktop.hostDisplayAccess = on))}
        />
      </Card>

      <CapabilitiesCard draft={draft} edit={edit} errors={errors} />

      <Card title="Apps" description="Programs the model may launch and close by name, with the arguments you fix here." muted={gated || !desktop.appControl}>
        {desktop.apps.length === 0 ? <p className="empty">No apps configured.</p> : null}
        {desktop.apps.map((app, index) => (
          <AppEntry key={`${app.name}-${index}`} app={app} index={index} errors={errors} edit={edit} />
        ))}
        <AddAppForm apps={desktop.apps} edit={edit} />
      </Card>
    </>
  );
}
