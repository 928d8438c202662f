/** What the model may do with the display once access is on: see, use mouse and keyboard, arrange windows, read the clipboard, open pages, run apps. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';

export function CapabilitiesCard({ draft, edit, errors }: Pick<SectionProps, 'draft' | 'edit' | 'errors'>) {
  const desktop = draft.desktop;
  const gated = !desktop.hostDisplayAccess;
  return (
    <Card title="Capabilities" description={gated ? 'Turn on display access above to choose these.' : 'Each one also needs display access.'} muted={gated}>
      <Switch
        id={fieldId('desktop.screen')}
        label="See the screen"
        description="Take screenshots of the whole screen or a region."
        checked={desktop.screen}
        disabled={gated}
        onChange={(on) => edit((d) => void (d.desktop.screen = on))}
      />
      <Switch
        id={fieldId('desktop.input')}
        label="Use mouse and keyboard"
        description="Move, click and type as if you did."
        checked={desktop.input}
        disabled={gated}
        onChange={(on) => edit((d) => void (d.desktop.input = on))}
      />
      <Switch
        id={fieldId('desktop.windows')}
        label="Arrange windows"
        description="List, focus, move, resize, minimize, maximize and close your windows."
        checked={desktop.windows}
        disabled={gated}
        onChange={(on) => edit((d) => void (d.desktop.windows = on))}
      />
      <Switch
        id={fieldId('desktop.windowTitles')}
        label="See window titles"
        description="Titles tell what you are reading and writing; without this, windows are listed by app only."
        checked={desktop.windowTitles}
        disabled={gated || !desktop.windows}
        onChange={(on) => edit((d) => void (d.desktop.windowTitles = on))}
      />
      <Switch
        id={fieldId('desktop.clipboardRead')}
        label="Read the clipboard"
        description="Copied passwords land there too. Writing to it comes with mouse and keyboard."
        checked={desktop.clipboardRead}
        disabled={gated}
        onChange={(on) => edit((d) => void (d.desktop.clipboardRead = on))}
      />
      <Switch
        id={fieldId('desktop.browser')}
        label="Open web pages"
        description="Open http and https links in your default browser."
        checked={desktop.browser}
        disabled={gated}
        onChange={(on) => edit((d) => void (d.desktop.browser = on))}
      />
      <Switch
        id={fieldId('desktop.appControl')}
        label="Launch and close apps"
        description="Only the apps listed below."
        checked={desktop.appControl}
        disabled={gated}
        onChange={(on) => edit((d) => void (d.desktop.appControl = on))}
      />
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
