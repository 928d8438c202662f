/** The confirmation before a new token: what it breaks, then Replace or Cancel. */
import { useState } from 'react';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import './connection.css';

export function ReplaceToken({
  bridge,
  onCancel,
  onReplaced,
}: {
  bridge: SettingsBridge;
  onCancel(): void;
  onReplaced(token: string, source: 'config' | 'file'): Promise<void>;
}) {
  const [state, setState] = useState<{ kind: 'asking' } | { kind: 'working' } | { kind: 'failed'; error: string }>({ kind: 'asking' });
  const replace = async () => {
    setState({ kind: 'working' });
    const result = await bridge.replaceToken();
    if (result.ok) await onReplaced(result.token, result.source);
    else setState({ kind: 'failed', error: result.error });
  };
  return (
    <div className="confirm-box" role="alertdialog" aria-labelledby="replace-token-title" aria-describedby="replace-token-text">
      <p id="replace-token-title" className="confirm-title">
        Replace the token?
      </p>
      <p id="replace-token-text">
        Every client that uses the current token stops working until you give it the new one: ChatGPT through the tunnel, Codex, Claude, scripts. The server
        restarts with the new token at once.
      </p>
      {state.kind === 'failed' ? (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <div className="button-row">
        <button type="button" className="button danger" disabled={state.kind === 'working'} onClick={() => void replace()}>
          {state.kind === 'working' ? 'Replacing…' : 'Replace token'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Keep the current token
        </button>
      </div>
    </div>
  );
}
