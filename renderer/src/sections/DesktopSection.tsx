import { useState } from 'react';
import { Icon } from '../components/Icon';
import { Card, FieldError, ListEditor, Switch, TextField, fieldId } from '../components/fields';
import { WARNINGS } from '../dangers';
import type { SectionProps } from './types';

const APP_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function DesktopSection({ draft, edit, errors }: SectionProps) {
  const desktop = draft.desktop;
  const gated = !desktop.hostDisplayAccess;
  const [newName, setNewName] = useState('');
  const [newPath, setNewPath] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const addApp = () => {
    const name = newName.trim();
    const path = newPath.trim();
    if (!APP_NAME.test(name)) return setProblem('Names use letters, digits, . _ and - (up to 64).');
    if (desktop.apps.some((a) => a.name === name)) return setProblem('Another app already has this name.');
    if (!path) return setProblem('Enter the program’s absolute path.');
    edit((d) => void d.desktop.apps.push({ name, path, args: [], allowExtraArgs: false }));
    setNewName('');
    setNewPath('');
    setProblem(null);
  };

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

      <Card title="Apps" description="Programs the model may launch and close by name, with the arguments you fix here." muted={gated || !desktop.appControl}>
        {desktop.apps.length === 0 ? <p className="empty">No apps configured.</p> : null}
        {desktop.apps.map((app, index) => {
          const key = `desktop.apps.${index}`;
          return (
            <div className="app-entry" key={`${app.name}-${index}`}>
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
        })}
        <div className="add-app">
          <div className="grid-app">
            <TextField id="new-app-name" label="New app name" value={newName} placeholder="editor" onChange={(v) => (setNewName(v), setProblem(null))} />
            <TextField
              id="new-app-path"
              label="Program path"
              value={newPath}
              placeholder="/usr/bin/gedit"
              mono
              onChange={(v) => (setNewPath(v), setProblem(null))}
            />
            <button type="button" className="button add-app-button" onClick={addApp} disabled={!newName.trim() && !newPath.trim()}>
              <Icon name="plus" size={15} />
              Add app
            </button>
          </div>
          <FieldError id="new-app-name" message={problem ?? undefined} />
        </div>
      </Card>
    </>
  );
}
