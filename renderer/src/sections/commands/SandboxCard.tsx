/**
 * The command sandbox: its mode and network, then what that choice means on this OS (the same
 * words system.info uses), or why the server would refuse to start with it.
 */
import { describeChoice, type SandboxChoice } from '../../../../main/policy/sandbox-mode';
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { SelectField } from '../../components/fields/SelectField';
import { Warning } from '../../components/fields/Warning';
import type { SectionProps } from '../section-props';
import { networkOptions, sandboxOptions } from './sandbox-options';

export function SandboxCard({ draft, edit, errors, env, sandbox }: Pick<SectionProps, 'draft' | 'edit' | 'errors' | 'env'> & { sandbox: SandboxChoice }) {
  const shell = draft.shell;
  const off = !shell.enabled;
  return (
    <Card title="Sandbox" description="Operating-system isolation for every command: where it may write, what it can see, its network." muted={off}>
      <div className="grid-2">
        <SelectField
          id={fieldId('shell.sandbox')}
          label="Mode"
          value={shell.sandbox}
          options={sandboxOptions(env.platform, shell.sandbox)}
          error={errors.get('shell.sandbox')}
          onChange={(value) => edit((d) => void (d.shell.sandbox = value))}
        />
        <SelectField
          id={fieldId('shell.network')}
          label="Network inside the sandbox"
          value={shell.network}
          options={networkOptions(env.platform, shell.network)}
          error={errors.get('shell.network')}
          onChange={(value) => edit((d) => void (d.shell.network = value))}
        />
      </div>
      {sandbox.problem ? (
        <Warning>The server will not start: {sandbox.problem.message}.</Warning>
      ) : (
        describeChoice(sandbox, env.platform).map((line) => (
          <p key={line} className="hint">
            {line}
          </p>
        ))
      )}
      {sandbox.mode === 'private-home' && !sandbox.problem ? (
        <ListEditor
          id={fieldId('shell.homeVisible')}
          label="More folders of your home commands may read"
          inputLabel="Folder (~/folder or an absolute path)"
          items={shell.homeVisible}
          placeholder="~/.gradle"
          addLabel="Add folder"
          empty="Only the shared folders and the toolchain folders."
          disabled={off}
          errorFor={(i) => errors.get(`shell.homeVisible.${i}`)}
          onChange={(items) => edit((d) => void (d.shell.homeVisible = items))}
          check={(value) => (value.startsWith('~/') || value.startsWith('/') ? null : 'expected ~/folder or an absolute path')}
        />
      ) : null}
      {sandbox.mechanism === 'bubblewrap' && !sandbox.problem ? (
        <p className="hint">Needs bubblewrap (sudo apt-get install bubblewrap): without it the server does not start.</p>
      ) : null}
    </Card>
  );
}
