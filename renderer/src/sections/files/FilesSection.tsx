/** Files: reading and writing, downloads, the shared folders, size limits, and what stays hidden inside them. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { SizeField } from '../../components/fields/SizeField';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';
import { SharedFoldersCard } from './SharedFoldersCard';

export function FilesSection({ draft, edit, errors, env, bridge }: SectionProps) {
  const fs = draft.filesystem;
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

      <SharedFoldersCard draft={draft} edit={edit} errors={errors} env={env} bridge={bridge} />

      <Card title="Downloads" description="Saving a file from the web into a shared folder you let the model write.">
        <Switch
          id={fieldId('download.enabled')}
          label="Download files"
          description="One https:// URL at a time. Addresses on this computer, your network and cloud metadata are refused, also after redirects; no cookies or passwords are sent; a failed download leaves nothing behind."
          checked={draft.download.enabled}
          onChange={(on) => edit((d) => void (d.download.enabled = on))}
        />
        <Switch
          id={fieldId('download.allowHttp')}
          label="Allow plain http://"
          description="Unencrypted downloads, which anyone on the way can read or change."
          checked={draft.download.allowHttp}
          disabled={!draft.download.enabled}
          onChange={(on) => edit((d) => void (d.download.allowHttp = on))}
        />
        <SizeField
          id={fieldId('download.maxBytes')}
          label="Largest download"
          value={draft.download.maxBytes}
          error={errors.get('download.maxBytes')}
          disabled={!draft.download.enabled}
          onChange={(n) => edit((d) => void (d.download.maxBytes = n))}
          hint={fs.write ? 'A bigger file is stopped and nothing is saved.' : 'Downloads also need "Write files" above.'}
        />
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
