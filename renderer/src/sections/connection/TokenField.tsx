/**
 * The token in use: hidden unless asked, Show and Copy, where it is kept, and Replace behind a
 * confirmation that says what replacing breaks. The window never makes up a token of its own:
 * what it shows is what the server takes, the same one `token show` prints.
 */
import { useState, type Dispatch, type SetStateAction } from 'react';
import type { SettingsBridge, TokenInUse } from '../../../../main/tray/bridge-api';
import { Icon } from '../../components/Icon';
import { fieldId } from '../../components/fields/field-id';
import { TextField } from '../../components/fields/TextField';
import type { Copier } from '../../use-copy';
import { ReplaceToken } from './ReplaceToken';

export function TokenField({
  info,
  error,
  bridge,
  copier,
  shown,
  setShown,
  onReplaced,
}: {
  info: TokenInUse | null;
  /** A server.token in the file that is not a usable token (Replace token… writes a good one). */
  error: string | undefined;
  bridge: SettingsBridge;
  copier: Copier;
  shown: boolean;
  setShown: Dispatch<SetStateAction<boolean>>;
  onReplaced(token: string, source: 'config' | 'file'): Promise<void>;
}) {
  const { copied, copy } = copier;
  const [confirming, setConfirming] = useState(false);
  const token = info?.token ?? '';
  return (
    <>
      <TextField
        id={fieldId('server.token')}
        label="Token in use"
        type={shown ? 'text' : 'password'}
        value={token}
        mono
        readOnly
        placeholder={info ? 'Made when the server first starts' : 'Reading…'}
        hint={info?.where}
        error={error}
        onChange={() => {}}
      />
      <div className="button-row">
        <button type="button" className="button" disabled={!token} onClick={() => setShown((s) => !s)}>
          <Icon name={shown ? 'eyeOff' : 'eye'} size={15} />
          {shown ? 'Hide' : 'Show'}
        </button>
        <button type="button" className="button primary" disabled={!token} onClick={() => copy('token', token)}>
          <Icon name={copied === 'token' ? 'check' : 'copy'} size={15} />
          {copied === 'token' ? 'Copied' : 'Copy token'}
        </button>
        {info?.source === 'environment' ? null : (
          <button type="button" className="link-button danger" aria-expanded={confirming} onClick={() => setConfirming(true)} disabled={confirming}>
            Replace token…
          </button>
        )}
      </div>
      {confirming ? (
        <ReplaceToken
          bridge={bridge}
          onCancel={() => setConfirming(false)}
          onReplaced={async (token, source) => {
            setConfirming(false);
            setShown(true);
            await onReplaced(token, source);
          }}
        />
      ) : null}
    </>
  );
}
