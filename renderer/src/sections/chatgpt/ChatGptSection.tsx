/**
 * Connect ChatGPT: the five steps from nothing to a working connector, each with its live
 * status. The tunnel id, the client file and "connect at start" are ordinary settings (saved
 * with the rest); the runtime key is not (see IdentityCard). One action runs at a time across
 * the steps.
 */
import type { SectionProps } from '../section-props';
import { IdentityCard } from './IdentityCard';
import { InChatGptCard } from './InChatGptCard';
import { ReadyCard } from './ReadyCard';
import { RunCard } from './RunCard';
import { TunnelClientCard } from './TunnelClientCard';
import { useStepActions } from './step-actions';
import { useTunnel } from './use-tunnel';

export function ChatGptSection({ draft, edit, errors, status, bridge, dirty }: SectionProps & { dirty: boolean }) {
  const clientPath = draft.tunnel.clientPath;
  const { snapshot, setSnapshot, lookup, setLookup, check } = useTunnel(bridge, clientPath);
  const actions = useStepActions();

  // The id being entered counts once it is valid; Connect still uses the saved one (and says so while unsaved).
  const tunnelId = draft.tunnel.tunnelId && !errors.get('tunnel.tunnelId') ? draft.tunnel.tunnelId : null;
  const keyInfo = snapshot?.key;
  const readyToConnect = lookup?.ok === true && Boolean(tunnelId) && keyInfo?.stored === true;

  return (
    <>
      <TunnelClientCard
        clientPath={clientPath}
        lookup={lookup}
        setLookup={setLookup}
        check={check}
        errors={errors}
        edit={edit}
        bridge={bridge}
        actions={actions}
      />
      <IdentityCard
        draft={draft}
        errors={errors}
        edit={edit}
        tunnelId={tunnelId}
        keyInfo={keyInfo}
        setSnapshot={setSnapshot}
        bridge={bridge}
        actions={actions}
      />
      <RunCard
        draft={draft}
        edit={edit}
        dirty={dirty}
        wanted={snapshot?.wanted === true}
        serverRunning={status.state === 'running'}
        readyToConnect={readyToConnect}
        setSnapshot={setSnapshot}
        bridge={bridge}
        actions={actions}
      />
      <ReadyCard tunnel={snapshot?.status} />
      <InChatGptCard draft={draft} edit={edit} tunnelId={tunnelId} bridge={bridge} />
    </>
  );
}
