/** Where clients connect: host and port, leaving loopback, and the resulting MCP URL. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { NumberField } from '../../components/fields/NumberField';
import { Switch } from '../../components/fields/Switch';
import { TextField } from '../../components/fields/TextField';
import { Warning } from '../../components/fields/Warning';
import { hostWarning, isLoopbackHost } from '../../dangers';
import type { Copier } from '../../use-copy';
import type { SectionProps } from '../section-props';
import { McpUrlField } from './McpUrlField';
import { shownUrl } from './mcp-url';

export function ServerAddressCard({ draft, edit, errors, status, copier }: Pick<SectionProps, 'draft' | 'edit' | 'errors' | 'status'> & { copier: Copier }) {
  const server = draft.server;
  const address = shownUrl(server.host, server.port, errors.has('server.port') || errors.has('server.host'), status);
  return (
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
      <McpUrlField address={address} copier={copier} />
    </Card>
  );
}
