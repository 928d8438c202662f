/**
 * The folders an upstream's sandbox shows it, each read-write or read-only. An entry keeps its
 * own form (`"/path"` read-write, `{"path", "readOnly": true}`), so adding or removing one never
 * turns another read-only folder read-write.
 */
import { AddEntry } from '../../components/fields/AddEntry';
import '../../components/fields/field.css';
import '../../components/fields/list-editor.css';

export type Folder = string | { path: string; readOnly?: boolean };

const pathOf = (folder: Folder) => (typeof folder === 'string' ? folder : folder.path);
const isReadOnly = (folder: Folder) => typeof folder !== 'string' && folder.readOnly === true;

export function UpstreamFolders({
  id,
  name,
  folders,
  onChange,
  errorFor,
}: {
  id: string;
  name: string;
  folders: Folder[];
  onChange(folders: Folder[]): void;
  errorFor(index: number): string | undefined;
}) {
  const paths = folders.map(pathOf);
  const label = 'Folders it sees';
  return (
    <div className="list-editor" role="group" aria-labelledby={`${id}-label`}>
      <div className="list-editor-label" id={`${id}-label`}>
        {label}
      </div>
      {folders.length === 0 ? (
        <p className="empty">No folders: it sees no files of yours.</p>
      ) : (
        <ul className="list" aria-label={label}>
          {folders.map((folder, index) => {
            const error = errorFor(index);
            const path = pathOf(folder);
            return (
              <li key={`${path}-${index}`} className={`list-item${error ? ' invalid' : ''}`}>
                <span className="mono">{path}</span>
                {error ? <span className="field-error inline">{error}</span> : null}
                <select
                  aria-label={`Access of ${name} to ${path}`}
                  value={isReadOnly(folder) ? 'read' : 'write'}
                  onChange={(event) => onChange(folders.map((f, i) => (i === index ? (event.target.value === 'read' ? { path, readOnly: true } : path) : f)))}
                >
                  <option value="write">read-write</option>
                  <option value="read">read-only</option>
                </select>
                <button
                  type="button"
                  className="link-button danger"
                  aria-label={`Remove ${path}`}
                  onClick={() => onChange(folders.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <AddEntry
        id={id}
        label="Folder"
        items={paths}
        placeholder="/home/me/notes"
        addLabel="Add folder"
        disabled={false}
        mono
        check={undefined}
        onAdd={(path) => onChange([...folders, path])}
      />
    </div>
  );
}
