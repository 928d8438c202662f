/**
 * Storing a secret gateway entries refer to as {"secret": "NAME"} (a token, an API key), as
 * `chatgpt-mcp gateway set-secret NAME` does: into the OS keyring, else an owner-only file. The
 * value goes to the tray once and is never shown again, saved in the config or logged.
 */
import { useState } from 'react';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Card } from '../../components/Card';
import { ResultBox } from '../../components/ResultBox';
import { TextField } from '../../components/fields/TextField';

/** As the config's secret references (main/config/sections/gateway.ts SECRET_REF). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;

export function SecretCard({ bridge }: { bridge: SettingsBridge }) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const nameError = name && !NAME.test(name.trim()) ? 'Letters, digits and . _ / - (for example github/GITHUB_TOKEN).' : undefined;
  const store = async () => {
    setBusy(true);
    const stored = await bridge.gatewaySetSecret(name.trim(), value).catch((error: unknown) => ({ ok: false as const, error: String(error) }));
    setBusy(false);
    if (!stored.ok) return setResult({ ok: false, text: `Not stored: ${stored.error}` });
    setResult({ ok: true, text: `Stored "${name.trim()}" in ${stored.where}. Entries use it as {"secret": "${name.trim()}"} from the server's next start.` });
    setValue('');
  };
  return (
    <Card
      title="Secrets"
      description="Tokens and keys the servers above refer to by name. They are kept in your system’s secret store (or, without one, an owner-only file), never in the config file, and never shown again."
    >
      <TextField id="gateway-secret-name" label="Name" value={name} mono placeholder="github/GITHUB_TOKEN" error={nameError} onChange={setName} />
      <TextField id="gateway-secret-value" label="Value" type="password" value={value} mono onChange={setValue} />
      <div className="button-row">
        <button type="button" className="button primary" disabled={busy || !value || !name.trim() || Boolean(nameError)} onClick={() => void store()}>
          Store secret
        </button>
      </div>
      {result ? (
        <ResultBox label="Secret" live>
          <span className={result.ok ? 'ok' : 'field-error'}>{result.text}</span>
        </ResultBox>
      ) : null}
    </Card>
  );
}
