/** What of an upstream is held (tools, prompts, resource templates) since it changed or appeared: what changed, and accepting it. */
import { useState } from 'react';
import type { SettingsBridge, UpstreamRow } from '../../../../main/tray/bridge-api';

export function HeldTools({ upstream, bridge, onAccepted }: { upstream: UpstreamRow; bridge: SettingsBridge; onAccepted(): void }) {
  const [error, setError] = useState<string | null>(null);
  if (upstream.held.length === 0) return null;
  // What this page showed goes with the accept: changed again since, nothing is accepted and the error says so.
  const accept = async (tool: string | null, seen: string[]) => {
    const result = await bridge.gatewayAccept(upstream.name, tool, seen);
    setError(result.ok ? null : result.error);
    onAccepted();
  };
  return (
    <div className="held-tools" role="group" aria-label={`Held tools of ${upstream.name}`}>
      <p className="held-intro">
        {upstream.held.length === 1 ? 'One change is' : `${upstream.held.length} changes are`} held: {upstream.name} lists{' '}
        {upstream.held.length === 1 ? 'something' : 'things'} you have not accepted as {upstream.held.length === 1 ? 'it is' : 'they are'}. Read the change
        before you accept it.
      </p>
      {upstream.held.map((tool) => (
        <details key={tool.name} className="held-tool" open={upstream.held.length === 1}>
          <summary>
            {tool.label} <span className="held-reason">({tool.reason === 'new' ? 'new' : 'changed'})</span>
          </summary>
          <pre className="held-diff">{tool.change}</pre>
          <button type="button" className="button" onClick={() => void accept(tool.name, [tool.seen])}>
            Accept {tool.label}
          </button>
        </details>
      ))}
      {upstream.held.length > 1 ? (
        <button
          type="button"
          className="button primary"
          onClick={() =>
            void accept(
              null,
              upstream.held.map((held) => held.seen),
            )
          }
        >
          Accept all {upstream.held.length}
        </button>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}
