/** The whole command line; a process without one (kernel threads, some system processes) shows its name the way ps does. */
import type { ProcessRow } from '../../../../main/tray/bridge-api';
import { Breakable } from '../../components/Breakable';

export function CommandLine({ process }: { process: ProcessRow }) {
  if (process.args.length > 0) return <Breakable text={process.args.join(' ')} />;
  return (
    <span className="muted" title="No command line: kernel threads and some system processes have none">
      [{process.command}]
    </span>
  );
}
