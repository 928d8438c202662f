/** What a client must present: the sign-in mode and, where it is used, the access token. */
import { useState } from 'react';
import type { AuthMode } from '../../../../main/config/schema';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { SelectField } from '../../components/fields/SelectField';
import type { Copier } from '../../use-copy';
import type { SectionProps } from '../section-props';
import { TokenField } from './TokenField';
import { useTokenInUse } from './use-token';

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

export function AuthenticationCard({
  draft,
  edit,
  errors,
  bridge,
  status,
  copier,
  adoptSaved,
}: Pick<SectionProps, 'draft' | 'edit' | 'errors' | 'bridge' | 'status'> & { copier: Copier; adoptSaved?: SectionProps['adoptSaved'] }) {
  // Kept here, not in the token field, so a shown token stays shown across a change of mode.
  const [showToken, setShowToken] = useState(false);
  const token = useTokenInUse(bridge, status);
  const server = draft.server;
  return (
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
        <TokenField
          info={token.info}
          error={errors.get('server.token')}
          bridge={bridge}
          copier={copier}
          shown={showToken}
          setShown={setShowToken}
          onReplaced={async (replaced, source) => {
            // A token kept in the config file changed there: the draft and what was saved take it alike.
            if (source === 'config') adoptSaved?.((d) => void (d.server.token = replaced));
            await token.reload();
          }}
        />
      ) : server.token ? (
        <p className="hint">
          The file also holds a token, which this choice does not use.{' '}
          <button type="button" className="link-button danger" onClick={() => edit((d) => void (d.server.token = ''))}>
            Remove the token
          </button>
        </p>
      ) : null}
    </Card>
  );
}
