/**
 * Gateway: the owner's other MCP servers, reached through this one under its rules. Each is
 * listed with its live state and held tools; new ones are added by pasting their entry, and the
 * secrets they refer to are stored from here.
 */
import { Banner } from '../../components/Banner';
import type { SectionProps } from '../section-props';
import { referencedSecrets } from '../../../../main/config/pasted-entry';
import { PasteCard } from './PasteCard';
import { SecretCard } from './SecretCard';
import { UpstreamCard } from './UpstreamCard';
import { useGatewayStatus } from './use-gateway-status';
import './gateway.css';

export function GatewaySection({ draft, edit, errors, bridge }: SectionProps) {
  const { snapshot, reload } = useGatewayStatus(bridge);
  const servers = draft.gateway.servers;
  const live = new Map((snapshot?.upstreams ?? []).map((u) => [u.name, u]));
  return (
    <>
      {snapshot && !snapshot.running && servers.length > 0 ? (
        <Banner kind="info">The server is not running with these servers; their state shows once it runs with the saved settings.</Banner>
      ) : null}
      {servers.length === 0 ? (
        <p className="empty">No other servers yet. Their tools appear to the model as &lt;prefix&gt;_&lt;tool&gt;, each server in its own sandbox.</p>
      ) : null}
      {servers.map((entry, index) => (
        <UpstreamCard
          key={`${entry.name}-${index}`}
          entry={entry}
          index={index}
          live={live.get(entry.name)}
          bridge={bridge}
          reload={reload}
          errorFor={(key) => errors.get(key)}
          change={(update) => edit((d) => update(d.gateway.servers[index]!))}
          remove={() => edit((d) => void d.gateway.servers.splice(index, 1))}
        />
      ))}
      <PasteCard
        taken={new Set(servers.map((s) => s.name.toLowerCase()))}
        add={(entries) => edit((d) => void d.gateway.servers.push(...entries.map((e) => ({ ...e }))))}
        storedAmong={async (names) => {
          // A name another entry refers to is taken as a stored one is (it may be stored for that entry later).
          const referenced = referencedSecrets(servers);
          return [...names.filter((name) => referenced.has(name)), ...(await bridge.gatewayStoredSecrets(names))];
        }}
      />
      <SecretCard bridge={bridge} />
    </>
  );
}
