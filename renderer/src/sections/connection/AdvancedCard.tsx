/** Advanced: extra Host names and browser origins, the public URL, tool names, log level, answer budget, request size and the app's updates. */
import { LOG_LEVELS } from '../../../../main/config/schema';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { NumberField } from '../../components/fields/NumberField';
import { SelectField } from '../../components/fields/SelectField';
import { SizeField } from '../../components/fields/SizeField';
import { Switch } from '../../components/fields/Switch';
import { TextField } from '../../components/fields/TextField';
import type { SectionProps } from '../section-props';

export function AdvancedCard({ draft, edit, errors }: Pick<SectionProps, 'draft' | 'edit' | 'errors'>) {
  const server = draft.server;
  return (
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
        <NumberField
          id={fieldId('server.answerBudgetTokens')}
          label="Answer budget (tokens)"
          value={server.answerBudgetTokens}
          error={errors.get('server.answerBudgetTokens')}
          onChange={(n) => edit((d) => void (d.server.answerBudgetTokens = n))}
          hint="What a model reads of one answer at most; longer answers are cut and say how to read the rest. 0: no budget."
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
      <Switch
        id={fieldId('updates.check')}
        label="Look for updates"
        description="At start and once a day, from this app’s GitHub releases; a new version downloads in the background and installs when you quit. Off: nothing is fetched."
        checked={draft.updates.check}
        onChange={(on) => edit((d) => void (d.updates.check = on))}
      />
    </Card>
  );
}
