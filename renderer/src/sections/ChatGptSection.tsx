/**
 * Connect ChatGPT: the five steps from nothing to a working connector, each with its live
 * status. The tunnel id, the client file and "connect at start" are ordinary settings (saved
 * with the rest); the runtime key goes straight to the OS secret store through the bridge and
 * never into the draft, the config file or this page's state after it was stored.
 */
import { useCallback, useEffect, useState } from 'react';
import { type LinkId, type TunnelClientLookup, type TunnelSnapshot, type TunnelState } from '../../../main/tunnel/status';
import { Icon } from '../components/Icon';
import { Card, Switch, TextField, Warning, fieldId } from '../components/fields';
import type { SectionProps } from './types';
import './chatgpt.css';

const TONE: Record<TunnelState, 'ok' | 'warn' | 'bad' | 'muted' | 'info'> = { ready: 'ok', starting: 'info', degraded: 'warn', error: 'bad', stopped: 'muted' };
const LABEL: Record<TunnelState, string> = { ready: 'Ready', starting: 'Connecting…', degraded: 'Degraded', error: 'Error', stopped: 'Not connected' };
const CONNECTOR_NAME = 'ChatGPT Computer MCP';
/** The prompt names the tool as this server will expose it (server.toolNames). */
const testPrompt = (toolNames: string) =>
  `Use the ChatGPT Computer MCP connector to call ${toolNames === 'underscore' ? 'system_info' : 'system.info'} and tell me what this computer allows.`;

export function ChatGptSection({ draft, edit, errors, status, bridge, dirty }: SectionProps & { dirty: boolean }) {
  const [snapshot, setSnapshot] = useState<TunnelSnapshot | null>(null);
  const [lookup, setLookup] = useState<TunnelClientLookup | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ step: number; text: string } | null>(null);
  const [key, setKey] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  const clientPath = draft.tunnel.clientPath;

  useEffect(() => {
    let alive = true;
    void bridge.tunnelStatus().then((s) => alive && setSnapshot(s));
    const off = bridge.onTunnel((s) => setSnapshot(s));
    return () => {
      alive = false;
      off();
    };
  }, [bridge]);

  const check = useCallback(
    async (path: string) => {
      setLookup(null);
      setLookup(await bridge.tunnelLookUp(path || undefined));
    },
    [bridge],
  );
  useEffect(() => {
    void check(clientPath);
  }, [check, clientPath]);

  const act = async (name: string, step: number, run: () => Promise<string | null>) => {
    setBusy(name);
    setProblem(null);
    try {
      const error = await run();
      if (error) setProblem({ step, text: error });
    } catch (error) {
      setProblem({ step, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };
  const copy = async (what: string, text: string) => {
    await bridge.copyText(text);
    setCopied(what);
    window.setTimeout(() => setCopied((c) => (c === what ? null : c)), 1600);
  };
  const open = (link: LinkId) => void bridge.openLink(link);

  const tunnel = snapshot?.status;
  const state: TunnelState = tunnel?.state ?? 'stopped';
  // The id being entered counts once it is valid; Connect still uses the saved one (and says so while unsaved).
  const tunnelId = draft.tunnel.tunnelId && !errors.get('tunnel.tunnelId') ? draft.tunnel.tunnelId : null;
  const keyInfo = snapshot?.key;
  const serverRunning = status.state === 'running';
  const readyToConnect = lookup?.ok === true && Boolean(tunnelId) && keyInfo?.stored === true;
  const stepProblem = (step: number) =>
    problem?.step === step ? (
      <p className="field-error" role="alert">
        {problem.text}
      </p>
    ) : null;

  return (
    <>
      <Card
        title="1. Tunnel client"
        description="OpenAI's tunnel-client carries ChatGPT's requests to this computer over an outbound connection; nothing is exposed to the internet."
        actions={<StepBadge done={lookup?.ok === true} />}
      >
        <div className="test-result" role="status" aria-live="polite" aria-label="Tunnel client status">
          {lookup === null ? (
            <span className="muted">Looking for the tunnel client…</span>
          ) : lookup.ok ? (
            <span className="ok">
              <Icon name="check" size={16} />
              <span className="status-text">
                {lookup.client.version} at <span className="mono">{lookup.client.path}</span> (
                {lookup.client.source === 'configured' ? 'your choice' : lookup.client.source === 'app-data' ? 'downloaded by this app' : 'found on PATH'})
              </span>
            </span>
          ) : (
            <span className="bad">
              <Icon name="warning" size={16} /> {lookup.error}
            </span>
          )}
        </div>
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
        {stepProblem(1)}
      </Card>

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
            <button type="button" className="button" onClick={() => open('tunnels')}>
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
            <button type="button" className="button" onClick={() => open('apiKeys')}>
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
                setSnapshot((s) => (s ? { ...s, key: result.key } : s));
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
                const info = await bridge.tunnelForgetKey();
                setSnapshot((s) => (s ? { ...s, key: info } : s));
                return null;
              })
            }
          >
            Remove key
          </button>
        </div>
        <div className="test-result" role="status" aria-label="Runtime key status">
          {keyInfo?.stored ? (
            <span className="ok">
              <Icon name="check" size={16} /> A runtime key is stored in {keyInfo.where}.
            </span>
          ) : (
            <span className="muted">No runtime key stored yet{keyInfo ? `; it will be kept in ${keyInfo.where}` : ''}.</span>
          )}
        </div>
        {keyInfo?.warning ? <Warning>{keyInfo.warning}</Warning> : null}
        {stepProblem(2)}
      </Card>

      <Card
        title="3. Run"
        description="This app starts the tunnel client, restarts it if it stops, and stops it with the server or when you quit."
        actions={
          snapshot?.wanted ? (
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
        {!readyToConnect && !snapshot?.wanted ? (
          <p className="muted small">Finish steps 1 and 2 first: a tunnel client, a tunnel id and a stored key.</p>
        ) : null}
        {!serverRunning ? <p className="muted small">The server is not running; the tunnel starts when it runs.</p> : null}
        {stepProblem(3)}
      </Card>

      <Card title="4. Ready" description="Green only when the tunnel client says it is ready and this server answered through the same token the tunnel sends.">
        <div className={`tunnel-state tunnel-${TONE[state]}`} role="status" aria-live="polite" aria-label="ChatGPT connection">
          <span className="status-dot" aria-hidden="true" />
          <strong>{LABEL[state]}</strong>
          {tunnel?.reason && state !== 'ready' ? <span className="tunnel-reason">{tunnel.reason}</span> : null}
        </div>
        {tunnel && tunnel.state !== 'stopped' ? (
          <dl className="tunnel-facts">
            <dt>Tunnel</dt>
            <dd className="mono">{tunnel.tunnelId ?? '—'}</dd>
            <dt>Client readiness</dt>
            <dd>{tunnel.readiness ?? '—'}</dd>
            <dt>Tools through the tunnel</dt>
            <dd>{tunnel.toolCount ?? '—'}</dd>
            <dt>Client page</dt>
            <dd className="mono">{tunnel.healthUrl ? `${tunnel.healthUrl}/ui` : '—'}</dd>
            <dt>Restarts</dt>
            <dd>{tunnel.restarts}</dd>
          </dl>
        ) : null}
        {tunnel && tunnel.log.length > 0 ? (
          <details className="tunnel-log" open={state === 'error'}>
            <summary>Recent output of the tunnel client (key and token hidden)</summary>
            <pre>
              {tunnel.log
                .slice(-12)
                .map((line) => `${line.stream === 'stderr' ? '! ' : ''}${line.text}`)
                .join('\n')}
            </pre>
          </details>
        ) : null}
      </Card>

      <Card
        title="5. In ChatGPT"
        description="Add the tunnel once as a connector; the tunnel client adds this server's token itself, so ChatGPT needs no header or secret."
      >
        <ol className="journey">
          <li>
            Open ChatGPT&apos;s <strong>Settings › Apps &amp; Connectors</strong>.{' '}
            <button type="button" className="button link" onClick={() => open('connectors')}>
              Open in the browser
            </button>
          </li>
          <li>
            Under <strong>Advanced settings</strong>, turn on <strong>Developer mode</strong>.
          </li>
          <li>
            <strong>Create</strong> a connector named <CopyChip text={CONNECTOR_NAME} what="name" copied={copied} copy={copy} />, choose{' '}
            <strong>Connection: Tunnel</strong> and pick (or paste) your tunnel{' '}
            {tunnelId ? <CopyChip text={tunnelId} what="tunnel id" copied={copied} copy={copy} /> : <em>(enter the tunnel id in step 2)</em>}. Authentication:{' '}
            <strong>none</strong>.
          </li>
          <li>
            In a chat, turn the connector on and try: <CopyChip text={testPrompt(draft.server.toolNames)} what="prompt" copied={copied} copy={copy} />
          </li>
          <li>
            After you change what this computer allows (and restart the server), open the connector in ChatGPT and press <strong>Refresh</strong>.
          </li>
        </ol>
        <Switch
          id={fieldId('chatgpt.searchFetch')}
          label="Offer search and fetch"
          description={
            draft.filesystem.read && draft.filesystem.roots.length > 0
              ? 'ChatGPT needs these two read-only tools for connectors outside developer mode and for deep research. They find and read files in the shared folders.'
              : 'ChatGPT needs these two read-only tools for connectors outside developer mode and for deep research. They need “Read files” and a shared folder (Files), which are not set.'
          }
          checked={draft.chatgpt.searchFetch}
          onChange={(on) => edit((d) => void (d.chatgpt.searchFetch = on))}
        />
        <Warning>
          ChatGPT keeps the tool list it saw when the connector was created or last refreshed: new grants are invisible to it until you press Refresh.
        </Warning>
      </Card>
    </>
  );
}

function StepBadge({ done }: { done: boolean }) {
  return done ? (
    <span className="pill pill-ok">
      <Icon name="check" size={12} /> Done
    </span>
  ) : (
    <span className="pill pill-running">To do</span>
  );
}

function CopyChip({ text, what, copied, copy }: { text: string; what: string; copied: string | null; copy(what: string, text: string): Promise<void> }) {
  return (
    <span className="copy-chip">
      <code>{text}</code>
      <button type="button" className="button small" aria-label={`Copy ${what}`} onClick={() => void copy(what, text)}>
        <Icon name={copied === what ? 'check' : 'copy'} size={13} />
        {copied === what ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
