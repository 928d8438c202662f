import type { NetworkSetting, SandboxSetting } from '../../../main/config/schema';
import { commandReach } from '../../../main/policy/command-reach';
import { defaultSandboxMode, describeChoice, resolveSandbox } from '../../../main/policy/sandbox-mode';
import { Card, DurationField, ListEditor, SelectField, SizeField, Switch, Warning, fieldId } from '../components/fields';
import { commandsWarning } from '../dangers';
import type { SectionProps } from './types';

/** The sandbox modes this OS offers (a mode it cannot run stays listed only while the file has it, so the refusal shows). */
function sandboxOptions(platform: string, current: SandboxSetting): { value: SandboxSetting; label: string }[] {
  const auto = defaultSandboxMode(platform);
  const why = platform === 'win32' ? ', not available on Windows' : platform === 'darwin' ? ', opt-in on macOS' : '';
  const all: { value: SandboxSetting; label: string }[] = [
    { value: 'auto', label: `Automatic (${auto}${why})` },
    { value: 'workspace', label: 'Workspace: write only in writable shared folders' },
    { value: 'read-only', label: 'Read-only: write nowhere but a temp folder' },
    { value: 'off', label: 'Off: your account’s full rights' },
  ];
  return platform === 'win32' ? all.filter((o) => o.value === 'auto' || o.value === 'off' || o.value === current) : all;
}

function networkOptions(platform: string, current: NetworkSetting): { value: NetworkSetting; label: string }[] {
  const all: { value: NetworkSetting; label: string }[] = [
    { value: 'auto', label: 'Automatic (off in the sandbox)' },
    { value: 'off', label: 'Off' },
    { value: 'loopback', label: 'This computer’s loopback only' },
    { value: 'on', label: 'On: this computer’s network' },
  ];
  return platform === 'darwin' ? all : all.filter((o) => o.value !== 'loopback' || o.value === current);
}

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
        {sandbox.mechanism === 'bubblewrap' && !sandbox.problem ? (
          <p className="hint">Needs bubblewrap (sudo apt-get install bubblewrap): without it the server does not start.</p>
        ) : null}
      </Card>

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
