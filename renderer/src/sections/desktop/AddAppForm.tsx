/** The row that adds an app: a name the model will use, the program's absolute path, and Add app. */
import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { FieldError } from '../../components/fields/FieldError';
import { TextField } from '../../components/fields/TextField';
import type { Draft } from '../../draft';
import type { SectionProps } from '../section-props';
import './apps.css';

const APP_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function AddAppForm({ apps, edit }: { apps: Draft['desktop']['apps']; edit: SectionProps['edit'] }) {
  const [newName, setNewName] = useState('');
  const [newPath, setNewPath] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const addApp = () => {
    const name = newName.trim();
    const path = newPath.trim();
    if (!APP_NAME.test(name)) return setProblem('Names use letters, digits, . _ and - (up to 64).');
    if (apps.some((a) => a.name === name)) return setProblem('Another app already has this name.');
    if (!path) return setProblem('Enter the program’s absolute path.');
    edit((d) => void d.desktop.apps.push({ name, path, args: [], allowExtraArgs: false }));
    setNewName('');
    setNewPath('');
    setProblem(null);
  };

  return (
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
  );
}
