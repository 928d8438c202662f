/**
 * Step 2: the tunnel id (an ordinary setting) and the runtime key, which goes straight to the
 * OS secret store through the bridge: never into the draft, the config file, or this page's
 * state once it is stored.
 */
import { useState, type Dispatch, type SetStateAction } from 'react';
import type { KeyStorageInfo, TunnelSnapshot } from '../../../../main/tunnel/status';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { Icon } from '../../components/Icon';
import { ResultBox } from '../../components/ResultBox';
import { fieldId } from '../../components/fields/field-id';
import { TextField } from '../../components/fields/TextField';
import { Warning } from '../../components/fields/Warning';
import type { SectionProps } from '../section-props';
import { StepBadge } from './StepBadge';
import { StepProblem, type StepActions } from './step-actions';

export function IdentityCard({
  draft,
  errors,
  edit,
  tunnelId,
  keyInfo,
  setSnapshot,
  bridge,
  actions,
}: Pick<SectionProps, 'draft' | 'errors' | 'edit'> & {
  /** The id being entered, once it is valid. */
  tunnelId: string | null;
  keyInfo: KeyStorageInfo | undefined;
  setSnapshot: Dispatch<SetStateAction<TunnelSnapshot | null>>;
  bridge: SettingsBridge;
  actions: StepActions;
}) {
  const [key, setKey] = useState('');
  const { busy, act } = actions;
  const storeKey = (info: KeyStorageInfo) => setSnapshot((s) => (s ? { ...s, key: info } : s));
  return (
    <Card
      title="2. Identity"
      description="The tunnel to serve and its runtime key. The key needs Tunnels Read + Use; it is kept in your system’s secret store (or, without one, an owner-only file), never in the config file."
      actions={<StepBadge done={Boolean(tunnelId) && keyInfo?.stored === true} />}
    >
      <TextField
        id={fieldId('tunnel.tunnelId')}
        label="Tunnel id"
        value={draft.tunnel.tunnelId}
        mono
        placeholder="tunnel_0123456789abcdef0123456789abcdef"
        error={errors.get('tunnel.tunnelId')}
        onChange={(value) => edit((d) => void (d.tunnel.tunnelId = value.trim()))}
        trailing={
          <button type="button" className="button" onClick={() => void bridge.openLink('tunnels')}>
            Open Tunnels page
          </button>
        }
      />
      <TextField
        id="tunnel-runtime-key"
        label="Runtime key"
        type="password"
        value={key}
        mono
        placeholder={keyInfo?.stored ? 'A key is stored; paste a new one to replace it' : 'sk-…'}
        onChange={setKey}
        trailing={
          <button type="button" className="button" onClick={() => void bridge.openLink('apiKeys')}>
            Create a key
          </button>
        }
      />
      <div className="button-row">
        <button
          type="button"
          className="button primary"
          disabled={!key.trim() || busy !== null}
          onClick={() =>
            act('key', 2, async () => {
              const result = await bridge.tunnelSetKey(key);
              if (!result.ok) return result.error;
              setKey('');
              storeKey(result.key);
              return null;
            })
          }
        >
          <Icon name="key" size={15} /> Store key
        </button>
        <button
          type="button"
          className="button danger"
          disabled={!keyInfo?.stored || busy !== null}
          onClick={() =>
            act('forget', 2, async () => {
              storeKey(await bridge.tunnelForgetKey());
              return null;
            })
          }
        >
          Remove key
        </button>
      </div>
      <ResultBox label="Runtime key status">
        {keyInfo?.stored ? (
          <span className="ok">
            <Icon name="check" size={16} /> A runtime key is stored in {keyInfo.where}.
          </span>
        ) : (
          <span className="muted">No runtime key stored yet{keyInfo ? `; it will be kept in ${keyInfo.where}` : ''}.</span>
        )}
      </ResultBox>
      {keyInfo?.warning ? <Warning>{keyInfo.warning}</Warning> : null}
      <StepProblem actions={actions} step={2} />
    </Card>
  );
}
