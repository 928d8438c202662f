/** Step 1: the tunnel client program, found, chosen or downloaded (and verified), and what was found. */
import type { TunnelClientLookup } from '../../../../main/tunnel/status';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { Icon } from '../../components/Icon';
import { ResultBox } from '../../components/ResultBox';
import { fieldId } from '../../components/fields/field-id';
import { TextField } from '../../components/fields/TextField';
import type { SectionProps } from '../section-props';
import { StepBadge } from './StepBadge';
import { StepProblem, type StepActions } from './step-actions';
import './tunnel-client.css';

export function TunnelClientCard({
  clientPath,
  lookup,
  setLookup,
  check,
  errors,
  edit,
  bridge,
  actions,
}: {
  clientPath: string;
  lookup: TunnelClientLookup | null;
  setLookup(lookup: TunnelClientLookup): void;
  check(path: string): Promise<void>;
  errors: SectionProps['errors'];
  edit: SectionProps['edit'];
  bridge: SettingsBridge;
  actions: StepActions;
}) {
  const { busy, act } = actions;
  return (
    <Card
      title="1. Tunnel client"
      description="OpenAI's tunnel-client carries ChatGPT's requests to this computer over an outbound connection; nothing is exposed to the internet."
      actions={<StepBadge done={lookup?.ok === true} />}
    >
      <ResultBox live label="Tunnel client status">
        <ClientFound lookup={lookup} />
      </ResultBox>
      <TextField
        id={fieldId('tunnel.clientPath')}
        label="Tunnel client program"
        value={clientPath}
        mono
        placeholder="Empty: the downloaded copy, else tunnel-client on PATH"
        error={errors.get('tunnel.clientPath')}
        onChange={(value) => edit((d) => void (d.tunnel.clientPath = value))}
      />
      <div className="button-row">
        <button
          type="button"
          className="button primary"
          disabled={busy !== null}
          onClick={() =>
            act('download', 1, async () => {
              const result = await bridge.tunnelDownload();
              if (!result.ok) return result.error;
              edit((d) => void (d.tunnel.clientPath = ''));
              setLookup(result.lookup);
              return null;
            })
          }
        >
          {busy === 'download' ? 'Downloading and verifying…' : 'Download official release'}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy !== null}
          onClick={() =>
            act('pick', 1, async () => {
              const picked = await bridge.tunnelPickClient();
              if (picked) edit((d) => void (d.tunnel.clientPath = picked));
              return null;
            })
          }
        >
          Choose file…
        </button>
        <button type="button" className="button" disabled={busy !== null} onClick={() => void check(clientPath)}>
          <Icon name="refresh" size={15} /> Check again
        </button>
      </div>
      <p className="muted small">
        The download is the latest release of openai/tunnel-client on GitHub for this computer, checked against the release&apos;s published SHA-256 before it
        is run.
      </p>
      <StepProblem actions={actions} step={1} />
    </Card>
  );
}

/** Which client was found, its version and where it came from; or why none can run. */
function ClientFound({ lookup }: { lookup: TunnelClientLookup | null }) {
  if (lookup === null) return <span className="muted">Looking for the tunnel client…</span>;
  if (!lookup.ok) {
    return (
      <span className="bad">
        <Icon name="warning" size={16} /> {lookup.error}
      </span>
    );
  }
  const source = lookup.client.source === 'configured' ? 'your choice' : lookup.client.source === 'app-data' ? 'downloaded by this app' : 'found on PATH';
  return (
    <span className="ok">
      <Icon name="check" size={16} />
      <span className="status-text">
        {lookup.client.version} at <span className="mono">{lookup.client.path}</span> ({source})
      </span>
    </span>
  );
}
