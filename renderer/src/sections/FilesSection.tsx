import { Icon } from '../components/Icon';
import { Card, FieldError, ListEditor, SizeField, Switch, Warning, fieldId } from '../components/fields';
import { rootWarning } from '../dangers';
import type { SectionProps } from './types';

export function FilesSection({ draft, edit, errors, env, bridge }: SectionProps) {
  const fs = draft.filesystem;
  const addFolder = async () => {
    const picked = await bridge.pickFolder();
    if (!picked) return;
    edit((d) => {
      if (!d.filesystem.roots.some((r) => r.path === picked)) d.filesystem.roots.push({ path: picked, readOnly: !d.filesystem.write });
    });
  };
  const rootsError = errors.get('filesystem.roots');
  // What a folder allows while writing is off everywhere (the per-folder choice only matters with it on).
  const readAccess = fs.read ? 'Read only' : 'No access';

  return (
    <>
      <Card title="Access" description="What the model may do inside the shared folders below.">
        <Switch
          id={fieldId('filesystem.read')}
          label="Read files"
          description="List folders and read text files."
          checked={fs.read}
          onChange={(on) => edit((d) => void (d.filesystem.read = on))}
        />
        <Switch
          id={fieldId('filesystem.write')}
          label="Write files"
          description="Create, change, move and delete files in folders not marked read-only."
          checked={fs.write}
          onChange={(on) => edit((d) => void (d.filesystem.write = on))}
        />
      </Card>

      <Card
        title="Shared folders"
        description="The only places file tools can reach. Everything outside them is refused."
        actions={
          <button type="button" className="button primary" onClick={addFolder}>
            <Icon name="folderPlus" size={15} />
            Add folder…
          </button>
        }
      >
        {fs.roots.length === 0 ? (
          <p className="empty">No folders are shared, so the model cannot see any files.</p>
        ) : (
          <table className="table roots">
            <thead>
              <tr>
                <th scope="col">Folder</th>
                <th scope="col" id="roots-access">
                  Access
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {fs.roots.map((root, index) => {
                const key = `filesystem.roots.${index}`;
                const error = errors.get(`${key}.path`) ?? errors.get(key);
                const warning = rootWarning(root.path, env);
                const pathId = fieldId(`${key}.path`);
                return (
                  <tr key={`${root.path}-${index}`} className={error ? 'invalid' : undefined}>
                    <td>
                      <div className="root-path">
                        <Icon name="files" size={16} />
                        <span className="mono" id={pathId} tabIndex={-1}>
                          {root.path}
                        </span>
                      </div>
                      <FieldError id={pathId} message={error} />
                      {warning ? <Warning>{warning}</Warning> : null}
                    </td>
                    <td className="shrink">
                      {fs.write ? (
                        <select
                          id={fieldId(`${key}.readOnly`)}
                          className="input compact"
                          aria-label={`Access to ${root.path}`}
                          value={root.readOnly ? 'read' : 'write'}
                          onChange={(event) => edit((d) => void (d.filesystem.roots[index]!.readOnly = event.target.value === 'read'))}
                        >
                          <option value="read">{fs.read ? 'Read only' : 'No access'}</option>
                          <option value="write">{fs.read ? 'Read and write' : 'Write only'}</option>
                        </select>
                      ) : (
                        // Without "Write files" every folder is read-only, whatever it is marked; its own setting returns with the switch.
                        <span className="access-effective" id={fieldId(`${key}.readOnly`)} tabIndex={-1} aria-label={`Access to ${root.path}: ${readAccess}`}>
                          {readAccess}
                        </span>
                      )}
                    </td>
                    <td className="shrink">
                      <button
                        type="button"
                        className="link-button danger"
                        aria-label={`Remove ${root.path}`}
                        onClick={() => edit((d) => void d.filesystem.roots.splice(index, 1))}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {rootsError ? <FieldError id={fieldId('filesystem.roots')} message={rootsError} /> : null}
        {fs.roots.length > 0 && !fs.write ? (
          <p className="hint">“Write files” is off, so every folder is read-only{fs.read ? '' : ' and, with “Read files” off too, nothing can be seen'}.</p>
        ) : fs.write && fs.roots.length > 0 && fs.roots.every((r) => r.readOnly) ? (
          <p className="hint">Every folder is read-only, so nothing can be written.</p>
        ) : null}
      </Card>

      <Card title="Limits">
        <div className="grid-2">
          <SizeField
            id={fieldId('filesystem.maxReadBytes')}
            label="Largest read"
            value={fs.maxReadBytes}
            error={errors.get('filesystem.maxReadBytes')}
            onChange={(n) => edit((d) => void (d.filesystem.maxReadBytes = n))}
            hint="Longer files are cut off."
          />
          <SizeField
            id={fieldId('filesystem.maxWriteBytes')}
            label="Largest write"
            value={fs.maxWriteBytes}
            error={errors.get('filesystem.maxWriteBytes')}
            onChange={(n) => edit((d) => void (d.filesystem.maxWriteBytes = n))}
            hint="Bigger writes are refused."
          />
        </div>
      </Card>

      <Card title="Protection" description="Locations that stay hidden even inside shared folders.">
        <Switch
          id={fieldId('filesystem.protectSecrets')}
          label="Hide secrets"
          description="SSH and cloud keys, .env files, password stores and similar are never listed or read."
          checked={fs.protectSecrets}
          onChange={(on) => edit((d) => void (d.filesystem.protectSecrets = on))}
        />
        <ListEditor
          id={fieldId('filesystem.deny')}
          label="Also hide"
          inputLabel="New pattern"
          items={fs.deny}
          placeholder="*.pem or node_modules"
          empty="No extra patterns."
          errorFor={(i) => errors.get(`filesystem.deny.${i}`)}
          onChange={(items) => edit((d) => void (d.filesystem.deny = items))}
          hint="Glob patterns matched against each part of a path."
        />
      </Card>
    </>
  );
}
