import { useState } from 'react';
import type { ConnectionTestResult } from '../../../main/tray/bridge-api';
import { LOG_LEVELS, type AuthMode } from '../../../main/config/schema';
import { Icon } from '../components/Icon';
import { Card, ListEditor, NumberField, SelectField, SizeField, Switch, TextField, Warning, fieldId } from '../components/fields';
import { hostWarning, isLoopbackHost } from '../dangers';
import type { SectionProps } from './types';

export function mcpUrl(host: string, port: number): string {
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shownHost || '127.0.0.1'}:${Number.isFinite(port) ? port : '?'}/mcp`;
}

/** The URL to show and copy for these settings, or why there is none to give out. */
export function shownUrl(
  host: string,
  port: number,
  invalid: boolean,
  status: SectionProps['status'],
): { url: string; hint: string } | { url: null; why: string } {
  if (invalid) return { url: null, why: 'Fix the host and port above to get the URL.' };
  const url = mcpUrl(host, port);
  const live = status.state === 'running' || status.state === 'paused' ? status.url : null;
  if (port === 0) {
    // Port 0 means a new free port at each start: only the running server's URL is real.
    return live
      ? { url: live, hint: 'The port changes at every start (port 0); this is the current one.' }
      : { url: null, why: 'Port 0 picks a free port when the server starts; the URL appears then.' };
  }
  if (live && live !== url) return { url, hint: `After saving and restarting. The server runs at ${live} until then.` };
  return { url, hint: 'Use this address in your MCP client or tunnel.' };
}

const AUTH_OPTIONS: { value: AuthMode; label: string }[] = [
  { value: 'bearer', label: 'Access token' },
  { value: 'oauth', label: 'OAuth, approved on this computer' },
  { value: 'bearer+oauth', label: 'Access token or OAuth' },
  { value: 'none', label: 'None (this computer only)' },
];

const AUTH_HINT: Record<AuthMode, string> = {
  bearer: 'Clients send the token below as “Authorization: Bearer <token>”.',
  oauth: 'For ChatGPT through a public tunnel: each app asks once and you approve it under Connected clients.',
  'bearer+oauth': 'Either the token below or an OAuth sign-in you approved.',
  none: 'Any program on this computer can use the server; refused on other addresses and with a public URL.',
};

export function ConnectionSection({ draft, edit, errors, status, bridge }: SectionProps) {
  const [showToken, setShowToken] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const server = draft.server;
  const address = shownUrl(server.host, server.port, errors.has('server.port') || errors.has('server.host'), status);

  const copy = async (what: string, text: string) => {
    await bridge.copyText(text);
    setCopied(what);
    window.setTimeout(() => setCopied((c) => (c === what ? null : c)), 1600);
  };
  const test = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(await bridge.testConnection());
    } catch (error) {
      setResult({ ok: false, url: null, error: error instanceof Error ? error.message : String(error) });
    } finally {
      setTesting(false);
    }
  };

  return (
    <>
      <Card
        title="Server address"
        description="Where MCP clients (a ChatGPT tunnel, Claude, an inspector) connect. Loopback keeps the server private to this computer."
      >
        <div className="grid-2">
          <TextField
            id={fieldId('server.host')}
            label="Host"
            value={server.host}
            mono
            error={errors.get('server.host')}
            onChange={(host) => edit((d) => void (d.server.host = host))}
            hint="127.0.0.1 unless a tunnel needs otherwise."
          />
          <NumberField
            id={fieldId('server.port')}
            label="Port"
            value={server.port}
            error={errors.get('server.port')}
            onChange={(port) => edit((d) => void (d.server.port = port))}
            hint="0 picks a free port at each start."
          />
        </div>
        {!isLoopbackHost(server.host) ? (
          <Switch
            id={fieldId('server.allowNonLoopback')}
            label="Allow connections from other computers"
            description="Required to listen on a non-loopback address. A token must be set too."
            checked={server.allowNonLoopback}
            onChange={(on) => edit((d) => void (d.server.allowNonLoopback = on))}
          />
        ) : null}
        {hostWarning(draft) ? <Warning>{hostWarning(draft)}</Warning> : null}
        {address.url !== null ? (
          <TextField
            id="mcp-url"
            label="MCP URL"
            value={address.url}
            mono
            readOnly
            onChange={() => {}}
            hint={address.hint}
            trailing={
              <button type="button" className="button" aria-label="Copy MCP URL" onClick={() => copy('url', address.url)}>
                <Icon name={copied === 'url' ? 'check' : 'copy'} size={15} />
                {copied === 'url' ? 'Copied' : 'Copy'}
              </button>
            }
          />
        ) : (
          <div className="field">
            <span className="field-label" id="mcp-url-label">
              MCP URL
            </span>
            <p className="no-value" id="mcp-url" aria-labelledby="mcp-url-label">
              {address.why}
            </p>
          </div>
        )}
      </Card>

      <Card title="Authentication" description="What a client must present before any tool runs.">
        <SelectField
          id={fieldId('server.auth')}
          label="Clients sign in with"
          value={server.auth}
          options={AUTH_OPTIONS}
          hint={AUTH_HINT[server.auth] ?? ''}
          error={errors.get('server.auth')}
          onChange={(auth) => edit((d) => void (d.server.auth = auth))}
        />
        {server.auth === 'bearer' || server.auth === 'bearer+oauth' ? (
          <>
            <TextField
              id={fieldId('server.token')}
              label="Token"
              type={showToken ? 'text' : 'password'}
              value={server.token}
              mono
              placeholder="Empty: the app’s own token file (made at first start; Copy token in the tray menu)"
              error={errors.get('server.token')}
              onChange={(token) => edit((d) => void (d.server.token = token))}
            />
            <div className="button-row">
              <button
                type="button"
                className="button"
                onClick={async () => {
                  const token = await bridge.generateToken();
                  edit((d) => void (d.server.token = token));
                  setShowToken(true);
                }}
              >
                <Icon name="key" size={15} />
                Generate new token
              </button>
              <button type="button" className="button" disabled={!server.token} onClick={() => setShowToken((s) => !s)}>
                <Icon name={showToken ? 'eyeOff' : 'eye'} size={15} />
                {showToken ? 'Hide' : 'Show'}
              </button>
              <button type="button" className="button" disabled={!server.token} onClick={() => copy('token', server.token)}>
                <Icon name={copied === 'token' ? 'check' : 'copy'} size={15} />
                {copied === 'token' ? 'Copied' : 'Copy'}
              </button>
              <button type="button" className="button danger" disabled={!server.token} onClick={() => edit((d) => void (d.server.token = ''))}>
                Clear
              </button>
            </div>
          </>
        ) : server.token ? (
          <p className="hint">
            The file also holds a token, which this choice does not use.{' '}
            <button type="button" className="link-button danger" onClick={() => edit((d) => void (d.server.token = ''))}>
              Remove the token
            </button>
          </p>
        ) : null}
      </Card>

      <Card
        title="Test connection"
        description="Connects to the running server like a remote client would (MCP 2026-07-28: discover, then list tools)."
        actions={
          <button type="button" className="button primary" onClick={test} disabled={testing}>
            {testing ? 'Testing…' : 'Test connection'}
          </button>
        }
      >
        <div className="test-result" role="status" aria-live="polite">
          {result === null ? (
            <span className="muted">{status.state === 'running' ? `Running at ${status.url}` : 'The server is not running.'}</span>
          ) : result.ok ? (
            <span className="ok">
              <Icon name="check" size={16} /> Connected to {result.url}: {result.toolCount} {result.toolCount === 1 ? 'tool' : 'tools'} available (
              {result.durationMs} ms).
            </span>
          ) : (
            <span className="bad">
              <Icon name="warning" size={16} /> {result.error}
            </span>
          )}
        </div>
      </Card>

      <Card title="Advanced" description="For tunnels that forward their public host name, and for browser-based clients.">
        <ListEditor
          id={fieldId('server.allowedHosts')}
          label="Extra allowed Host names"
          inputLabel="New host name"
          items={server.allowedHosts}
          placeholder="my-tunnel.example.com"
          empty="Only localhost, 127.0.0.1 and [::1] are accepted."
          errorFor={(i) => errors.get(`server.allowedHosts.${i}`)}
          onChange={(items) => edit((d) => void (d.server.allowedHosts = items))}
        />
        <TextField
          id={fieldId('server.publicUrl')}
          label="Public URL"
          value={server.publicUrl}
          mono
          placeholder="https://my-tunnel.example.com"
          error={errors.get('server.publicUrl')}
          onChange={(value) => edit((d) => void (d.server.publicUrl = value.trim()))}
          hint="The tunnel’s public https address, if it has one. OAuth needs it; its host is accepted like an extra Host name."
        />
        <ListEditor
          id={fieldId('server.allowedOrigins')}
          label="Extra allowed browser origins"
          inputLabel="New origin"
          items={server.allowedOrigins}
          placeholder="https://example.com"
          empty="No browser page from another origin may call the server."
          errorFor={(i) => errors.get(`server.allowedOrigins.${i}`)}
          onChange={(items) => edit((d) => void (d.server.allowedOrigins = items))}
        />
        <div className="grid-2">
          <SelectField
            id={fieldId('server.toolNames')}
            label="Tool names"
            value={server.toolNames}
            options={[
              { value: 'underscore', label: 'Underscores (fs_read)' },
              { value: 'dotted', label: 'Dots (fs.read)' },
            ]}
            hint="The same tools either way. OpenAI’s API and Claude Desktop refuse dots."
            error={errors.get('server.toolNames')}
            onChange={(names) => edit((d) => void (d.server.toolNames = names))}
          />
          <SelectField
            id={fieldId('server.logLevel')}
            label="Log level"
            value={server.logLevel}
            options={LOG_LEVELS.map((level) => ({ value: level, label: level[0]!.toUpperCase() + level.slice(1) }))}
            hint="Diagnostics never include contents or tokens."
            error={errors.get('server.logLevel')}
            onChange={(level) => edit((d) => void (d.server.logLevel = level))}
          />
          <SizeField
            id={fieldId('server.maxRequestBytes')}
            label="Largest request"
            value={server.maxRequestBytes}
            hint="Must exceed the largest file write."
            error={errors.get('server.maxRequestBytes')}
            onChange={(n) => edit((d) => void (d.server.maxRequestBytes = n))}
          />
        </div>
      </Card>
    </>
  );
}
