/**
 * One shared folder: its path (with its error and warning), its access, and Remove. Without
 * "Write files" every folder is read-only whatever it is marked, so the access is stated, not chosen.
 */
import type { FolderKind } from '../../../../main/tray/bridge-api';
import { Icon } from '../../components/Icon';
import { FieldError } from '../../components/fields/FieldError';
import { Warning } from '../../components/fields/Warning';
import { fieldId } from '../../components/fields/field-id';
import type { Draft } from '../../draft';
import { rootWarning, type Environment } from '../../dangers';
import type { SectionProps } from '../section-props';
import './shared-folders.css';

/** A path the file tools would refuse, said before they do. */
const KIND_WARNINGS: Record<FolderKind, string | null> = {
  directory: null,
  missing: 'This folder does not exist (any more): file tools refuse it until it does.',
  other: 'This is a file, not a folder: file tools refuse it. Share the folder that holds it.',
};

export function RootRow({
  root,
  index,
  filesystem,
  errors,
  env,
  edit,
  kind,
}: {
  /** What is at the path on this computer, once known. */
  kind?: FolderKind | undefined;
  root: Draft['filesystem']['roots'][number];
  index: number;
  filesystem: Draft['filesystem'];
  errors: SectionProps['errors'];
  env: Environment;
  edit: SectionProps['edit'];
}) {
  const key = `filesystem.roots.${index}`;
  const error = errors.get(`${key}.path`) ?? errors.get(key);
  const warning = rootWarning(root.path, env) ?? (kind ? KIND_WARNINGS[kind] : null);
  const pathId = fieldId(`${key}.path`);
  // What a folder allows while writing is off everywhere (the per-folder choice only matters with it on).
  const readAccess = filesystem.read ? 'Read only' : 'No access';
  return (
    <tr className={error ? 'invalid' : undefined}>
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
        {filesystem.write ? (
          <select
            id={fieldId(`${key}.readOnly`)}
            className="input compact"
            aria-label={`Access to ${root.path}`}
            value={root.readOnly ? 'read' : 'write'}
            onChange={(event) => edit((d) => void (d.filesystem.roots[index]!.readOnly = event.target.value === 'read'))}
          >
            <option value="read">{filesystem.read ? 'Read only' : 'No access'}</option>
            <option value="write">{filesystem.read ? 'Read and write' : 'Write only'}</option>
          </select>
        ) : (
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
}
