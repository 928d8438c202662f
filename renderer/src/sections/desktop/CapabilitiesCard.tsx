/**
 * What the model may do with the display once access is on: see, use mouse and keyboard, arrange
 * windows, read the clipboard, open pages, run apps. While access is off every switch shows off,
 * as it works: none of them does anything then. The choices stay saved and come back with access.
 */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';

const FAMILIES = [
  { key: 'screen', label: 'See the screen', description: 'Take screenshots of the whole screen or a region.' },
  { key: 'input', label: 'Use mouse and keyboard', description: 'Move, click and type as if you did.' },
  { key: 'windows', label: 'Arrange windows', description: 'List, focus, move, resize, minimize, maximize and close your windows.' },
  {
    key: 'windowTitles',
    label: 'See window titles',
    description: 'Titles tell what you are reading and writing; without this, windows are listed by app only.',
  },
  {
    key: 'clipboardRead',
    label: 'Read the clipboard',
    description: 'Copied passwords land there too. Writing to it comes with mouse and keyboard.',
  },
  { key: 'browser', label: 'Open web pages', description: 'Open http and https links in your default browser.' },
  { key: 'appControl', label: 'Launch and close apps', description: 'Only the apps listed below.' },
] as const;

export function CapabilitiesCard({ draft, edit, errors }: Pick<SectionProps, 'draft' | 'edit' | 'errors'>) {
  const desktop = draft.desktop;
  const gated = !desktop.hostDisplayAccess;
  const kept = FAMILIES.filter((family) => desktop[family.key]).map((family) => family.label);
  return (
    <Card title="Capabilities" description={gated ? 'Turn on display access above to choose these.' : 'Each one also needs display access.'} muted={gated}>
      {FAMILIES.map(({ key, label, description }) => (
        <Switch
          key={key}
          id={fieldId(`desktop.${key}`)}
          label={label}
          description={description}
          checked={!gated && desktop[key]}
          disabled={gated || (key === 'windowTitles' && !desktop.windows)}
          onChange={(on) => edit((d) => void (d.desktop[key] = on))}
        />
      ))}
      {gated && kept.length ? <p className="hint">Kept for when display access is on: {kept.join(', ')}.</p> : null}
      {desktop.browser && !gated ? (
        <ListEditor
          id={fieldId('desktop.browserUrls')}
          label="Web pages the model may open"
          inputLabel="New URL pattern"
          items={desktop.browserUrls}
          placeholder="https://docs.example.com/*"
          empty="Any http or https address."
          errorFor={(i) => errors.get(`desktop.browserUrls.${i}`)}
          onChange={(items) => edit((d) => void (d.desktop.browserUrls = items))}
        />
      ) : null}
    </Card>
  );
}
