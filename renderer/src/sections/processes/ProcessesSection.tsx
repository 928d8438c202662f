/** Processes: what process tools may do, the computer's inventory, and the running processes as the server sees them. */
import { Card } from '../../components/Card';
import { fieldId } from '../../components/fields/field-id';
import { Switch } from '../../components/fields/Switch';
import type { SectionProps } from '../section-props';
import { RunningProcessesCard } from './RunningProcessesCard';

export function ProcessesSection({ draft, edit, env, status, bridge }: SectionProps) {
  return (
    <>
      <Card title="Permissions" description="What process tools may do. The list below follows the running server’s settings.">
        <Switch
          id={fieldId('process.list')}
          label="List processes"
          description="Process ids, owners and command lines, with passwords and tokens in command lines hidden."
          checked={draft.process.list}
          onChange={(on) => edit((d) => void (d.process.list = on))}
        />
        <Switch
          id={fieldId('process.kill')}
          label="End processes"
          description="Send SIGTERM or SIGKILL. Never to this app, the programs that started it, process 1 or kernel threads."
          checked={draft.process.kill}
          onChange={(on) => edit((d) => void (d.process.kill = on))}
        />
        <Switch
          id={fieldId('process.ownOnly')}
          label="Only my processes"
          description={
            env.platform === 'win32'
              ? 'List and end only processes of your own account. Windows does not report owners cheaply, so with this on no process is listed or ended.'
              : 'List and end only processes of your own account; other users’ processes stay invisible.'
          }
          checked={draft.process.ownOnly}
          disabled={!draft.process.list && !draft.process.kill}
          onChange={(on) => edit((d) => void (d.process.ownOnly = on))}
        />
      </Card>

      <Card title="This computer" description="What ChatGPT may learn about the machine itself. Read-only: it changes nothing.">
        <Switch
          id={fieldId('system.inventory')}
          label="Computer inventory"
          description="Listening ports with their programs, disks and free space, network interfaces and addresses, the OS, shells and runtimes on PATH, and environment variable names (values of a short harmless list only)."
          checked={draft.system.inventory}
          onChange={(on) => edit((d) => void (d.system.inventory = on))}
        />
      </Card>

      <RunningProcessesCard grants={draft.process} status={status} bridge={bridge} />
    </>
  );
}
