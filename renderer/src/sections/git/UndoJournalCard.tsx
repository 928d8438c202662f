/** The change journal: whether changes are recorded for undo, its size, and what makes one group. */
import { Card } from '../../components/Card';
import { DurationField } from '../../components/fields/DurationField';
import { fieldId } from '../../components/fields/field-id';
import { SizeField } from '../../components/fields/SizeField';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';

export function UndoJournalCard({ draft, edit, errors }: SectionProps) {
  const { undo } = draft;
  return (
    <Card
      title="Undo"
      description="Before a file or git tool changes something, what it was is kept in this app’s data folder (only you can read it). Activity lists the changes, with “Undo these changes”. Commands can change anything and are not recorded."
    >
      <Switch id={fieldId('undo.enabled')} label="Record changes for undo" checked={undo.enabled} onChange={(on) => edit((d) => void (d.undo.enabled = on))} />
      <div className="grid-2">
        <SizeField
          id={fieldId('undo.maxBytes')}
          label="Largest journal"
          value={undo.maxBytes}
          disabled={!undo.enabled}
          error={errors.get('undo.maxBytes')}
          onChange={(n) => edit((d) => void (d.undo.maxBytes = n))}
          hint="Past it the oldest groups are dropped, and the list says so."
        />
        <DurationField
          id={fieldId('undo.groupIdleMs')}
          label="New group after a pause of"
          value={undo.groupIdleMs}
          disabled={!undo.enabled}
          error={errors.get('undo.groupIdleMs')}
          onChange={(n) => edit((d) => void (d.undo.groupIdleMs = n))}
          hint="One client’s changes closer together than this are undone together."
        />
      </div>
    </Card>
  );
}
