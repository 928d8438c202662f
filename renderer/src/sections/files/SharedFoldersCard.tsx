/** Shared folders: the only places file tools reach, added with the system's folder picker. */
import { Card } from '../../components/Card';
import { Icon } from '../../components/Icon';
import { FieldError } from '../../components/fields/FieldError';
import { fieldId } from '../../components/fields/field-id';
import type { SectionProps } from '../section-props';
import { RootRow } from './RootRow';
import { useFolderKinds } from './use-folder-kinds';
import './shared-folders.css';

export function SharedFoldersCard({ draft, edit, errors, env, bridge }: Pick<SectionProps, 'draft' | 'edit' | 'errors' | 'env' | 'bridge'>) {
  const fs = draft.filesystem;
  const kinds = useFolderKinds(bridge, fs.roots);
  const addFolder = async () => {
    const picked = await bridge.pickFolder();
    if (!picked) return;
    edit((d) => {
      if (!d.filesystem.roots.some((r) => r.path === picked)) d.filesystem.roots.push({ path: picked, readOnly: !d.filesystem.write });
    });
  };
  const rootsError = errors.get('filesystem.roots');
  return (
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
            {fs.roots.map((root, index) => (
              <RootRow
                key={`${root.path}-${index}`}
                root={root}
                index={index}
                filesystem={fs}
                errors={errors}
                env={env}
                edit={edit}
                kind={kinds.get(root.path)}
              />
            ))}
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
  );
}
