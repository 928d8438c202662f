/** Step 3: Connect or Disconnect, "connect when the app starts", and what still stands in the way. */
import type { Dispatch, SetStateAction } from 'react';
import type { TunnelSnapshot } from '../../../../main/tunnel/status';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';
import { StepProblem, type StepActions } from './step-actions';

export function RunCard({
  draft,
  edit,
  dirty,
  wanted,
  serverRunning,
  readyToConnect,
  setSnapshot,
  bridge,
  actions,
}: Pick<SectionProps, 'draft' | 'edit'> & {
  dirty: boolean;
  /** The owner wants ChatGPT connected (also while the server is down): Disconnect is offered. */
  wanted: boolean;
  serverRunning: boolean;
  readyToConnect: boolean;
  setSnapshot: Dispatch<SetStateAction<TunnelSnapshot | null>>;
  bridge: SettingsBridge;
  actions: StepActions;
}) {
  const { busy, act } = actions;
  return (
    <Card
      title="3. Run"
      description="This app starts the tunnel client, restarts it if it stops, and stops it with the server or when you quit."
      actions={
        wanted ? (
          <button
            type="button"
            className="button"
            disabled={busy !== null}
            onClick={() => act('disconnect', 3, async () => (await bridge.tunnelDisconnect(), null))}
          >
            Disconnect
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            disabled={busy !== null || dirty || !serverRunning || !readyToConnect}
            onClick={() =>
              act('connect', 3, async () => {
                const result = await bridge.tunnelConnect();
                setSnapshot(result.snapshot);
                return result.ok ? null : result.error;
              })
            }
          >
            Connect ChatGPT
          </button>
        )
      }
    >
      <Switch
        id={fieldId('tunnel.connectAtStart')}
        label="Connect when the app starts"
        description="Starts the tunnel client with the server every time this app starts."
        checked={draft.tunnel.connectAtStart}
        onChange={(on) => edit((d) => void (d.tunnel.connectAtStart = on))}
      />
      {dirty ? <p className="muted small">Save your changes first: the tunnel uses the saved settings.</p> : null}
      {!readyToConnect && !wanted ? <p className="muted small">Finish steps 1 and 2 first: a tunnel client, a tunnel id and a stored key.</p> : null}
      {!serverRunning ? <p className="muted small">The server is not running; the tunnel starts when it runs.</p> : null}
      <StepProblem actions={actions} step={3} />
    </Card>
  );
}
