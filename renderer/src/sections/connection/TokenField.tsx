/** The access token, hidden unless asked, with Generate, Show or Hide, Copy and Clear. */
import type { Dispatch, SetStateAction } from 'react';
import type { SettingsBridge } from '../../../../main/tray/bridge-api';
import { Icon } from '../../components/Icon';
import { fieldId } from '../../components/fields/field-id';
import { TextField } from '../../components/fields/TextField';
import type { Copier } from '../../use-copy';
import type { SectionProps } from '../section-props';

export function TokenField({
  token,
  error,
  edit,
  bridge,
  copier,
  shown,
  setShown,
}: {
  token: string;
  error: string | undefined;
  edit: SectionProps['edit'];
  bridge: SettingsBridge;
  copier: Copier;
  shown: boolean;
  setShown: Dispatch<SetStateAction<boolean>>;
}) {
  const { copied, copy } = copier;
  return (
    <>
      <TextField
        id={fieldId('server.token')}
        label="Token"
        type={shown ? 'text' : 'password'}
        value={token}
        mono
        placeholder="Empty: the app’s own token file (made at first start; Copy token in the tray menu)"
        error={error}
        onChange={(value) => edit((d) => void (d.server.token = value))}
      />
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={async () => {
            const generated = await bridge.generateToken();
            edit((d) => void (d.server.token = generated));
            setShown(true);
          }}
        >
          <Icon name="key" size={15} />
          Generate new token
        </button>
        <button type="button" className="button" disabled={!token} onClick={() => setShown((s) => !s)}>
          <Icon name={shown ? 'eyeOff' : 'eye'} size={15} />
          {shown ? 'Hide' : 'Show'}
        </button>
        <button type="button" className="button" disabled={!token} onClick={() => copy('token', token)}>
          <Icon name={copied === 'token' ? 'check' : 'copy'} size={15} />
          {copied === 'token' ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button danger" disabled={!token} onClick={() => edit((d) => void (d.server.token = ''))}>
          Clear
        </button>
      </div>
    </>
  );
}
