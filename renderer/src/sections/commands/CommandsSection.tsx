/** Commands: whether programs may run, which ones, in what sandbox, for how long, with what environment. */
import { commandReach } from '../../../../main/policy/command-reach';
import { resolveSandbox } from '../../../../main/policy/sandbox-mode';
import { Card } from '../../components/Card';
import { DurationField } from '../../components/fields/DurationField';
import { fieldId } from '../../components/fields/field-id';
import { ListEditor } from '../../components/fields/ListEditor';
import { SizeField } from '../../components/fields/SizeField';
import { Switch } from '../../components/fields/Switch';
import { commandsWarning } from '../../dangers';
import type { SectionProps } from '../section-props';
import { SandboxCard } from './SandboxCard';

export function CommandsSection({ draft, edit, errors, env }: SectionProps) {
  const shell = draft.shell;
  const off = !shell.enabled;
  const sandbox = resolveSandbox(shell, draft.desktop.hostDisplayAccess, env.platform);
  return (
    <>
      <Card
        title="Access"
        description={`Programs run directly (never through a shell) with an argument list, as your account. Only the folder they start in must be a shared folder. ${commandReach(sandbox)}`}
      >
        <Switch
          id={fieldId('shell.enabled')}
          label="Allow running commands"
          description="Only the programs listed below can be started."
          checked={shell.enabled}
          emphasis
          onChange={(on) => edit((d) => void (d.shell.enabled = on))}
        />
      </Card>

      <Card title="Allowed programs" description="Names found on PATH (git, node, python3) or absolute paths. “*” allows every program." muted={off}>
        <ListEditor
          id={fieldId('shell.allowedCommands')}
          label="Programs the model may run"
          inputLabel="Program name or path"
          items={shell.allowedCommands}
          placeholder="git"
          addLabel="Add program"
          empty="No programs allowed yet."
          disabled={off}
          warning={commandsWarning(draft, env.platform)}
          errorFor={(i) => errors.get(`shell.allowedCommands.${i}`)}
          onChange={(items) => edit((d) => void (d.shell.allowedCommands = items))}
          check={(value) => (/\s/.test(value) && !/[\\/]/.test(value) ? 'one program name, without arguments' : null)}
        />
      </Card>

      <SandboxCard draft={draft} edit={edit} errors={errors} env={env} sandbox={sandbox} />

      <Card title="Limits" muted={off}>
        <div className="grid-2">
          <DurationField
            id={fieldId('shell.maxRuntimeMs')}
            label="Longest wait in one call"
            value={shell.maxRuntimeMs}
            disabled={off}
            error={errors.get('shell.maxRuntimeMs')}
            onChange={(n) => edit((d) => void (d.shell.maxRuntimeMs = n))}
            hint="A command still running then goes on under a handle the model can read and stop (or, with a timeout it chose, is stopped with its whole process tree)."
          />
          <SizeField
            id={fieldId('shell.maxOutputBytes')}
            label="Most output kept"
            value={shell.maxOutputBytes}
            disabled={off}
            error={errors.get('shell.maxOutputBytes')}
            onChange={(n) => edit((d) => void (d.shell.maxOutputBytes = n))}
            hint="Per stream; the rest is dropped."
          />
        </div>
      </Card>

      <Card title="Environment" description="Commands get a minimal environment unless you allow more." muted={off}>
        <Switch
          id={fieldId('shell.allowEnv')}
          label="Let the model add environment variables"
          description="Only harmless ones (LANG, TZ, TERM and the like) and the names listed in shell.allowedEnv in the config file."
          checked={shell.allowEnv}
          disabled={off}
          onChange={(on) => edit((d) => void (d.shell.allowEnv = on))}
        />
        <Switch
          id={fieldId('shell.allowPathEnv')}
          label="Let the model change PATH"
          description="Changing PATH can make an allowed name run a different program."
          checked={shell.allowPathEnv}
          disabled={off || !shell.allowEnv}
          onChange={(on) => edit((d) => void (d.shell.allowPathEnv = on))}
        />
      </Card>
    </>
  );
}
