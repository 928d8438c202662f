/** One upstream server: what runs (or where it is), its live state, its switches and folders, its tools' switches, and its held tools. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import type { SettingsBridge, UpstreamRow } from '../../../../main/tray/bridge-api';
import type { DraftUpstream } from '../../draft';
import { HeldTools } from './HeldTools';
import { UpstreamFolders, type Folder } from './UpstreamFolders';
import { UpstreamTools } from './UpstreamTools';

export function UpstreamCard({
  entry,
  index,
  live,
  bridge,
  change,
  remove,
  reload,
  errorFor,
}: {
  entry: DraftUpstream;
  index: number;
  live: UpstreamRow | undefined;
  bridge: SettingsBridge;
  change(update: (entry: DraftUpstream) => void): void;
  remove(): void;
  reload(): void;
  errorFor(key: string): string | undefined;
}) {
  const key = (name: string) => `gateway.servers.${index}.${name}`;
  const what = typeof entry.url === 'string' ? entry.url : [entry.command, ...((entry.args as string[] | undefined) ?? [])].filter(Boolean).join(' ');
  const state = live
    ? `${live.state}${live.calls ? `, ${live.calls} calls` : ''}${live.tools ? `, ${live.tools} tool${live.tools === 1 ? '' : 's'}` : ''}`
    : 'not saved yet';
  return (
    <Card
      title={`${entry.name} (${live?.prefix ?? (entry.prefix as string | undefined) ?? entry.name}_*)`}
      description={<code className="upstream-command">{what}</code>}
      actions={
        <button type="button" className="button" onClick={remove} aria-label={`Remove ${entry.name}`}>
          Remove
        </button>
      }
    >
      <p className="upstream-state" aria-label={`State of ${entry.name}`}>
        {state}
      </p>
      {live?.lastError ? <p className="field-error">Last error: {live.lastError}</p> : null}
      {errorFor(`gateway.servers.${index}`) ? <p className="field-error">{errorFor(`gateway.servers.${index}`)}</p> : null}
      <Switch id={fieldId(key('enabled'))} label="Enabled" checked={entry.enabled !== false} onChange={(on) => change((e) => void (e.enabled = on))} />
      {typeof entry.url === 'string' ? null : (
        <>
          <Switch
            id={fieldId(key('network'))}
            label="Network"
            description="Off: it cannot reach any network, this computer's included."
            checked={entry.network === true}
            onChange={(on) => change((e) => void (e.network = on))}
          />
          <UpstreamFolders
            id={fieldId(key('folders'))}
            name={entry.name}
            folders={(entry.folders as Folder[] | undefined) ?? []}
            errorFor={(i) => errorFor(`${key('folders')}.${i}`)}
            onChange={(items) => change((e) => void (e.folders = items))}
          />
        </>
      )}
      {live ? <UpstreamTools entry={entry} index={index} known={live.known} change={change} /> : null}
      {live ? <HeldTools upstream={live} bridge={bridge} onAccepted={reload} /> : null}
    </Card>
  );
}
