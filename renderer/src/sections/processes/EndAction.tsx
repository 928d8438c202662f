/** A row's action: "End…", then End (SIGTERM), Force (SIGKILL) or Cancel; or why the process is protected. */
import type { KillSignal, ProcessRow } from '../../../../main/tray/bridge-api';
import './process-table.css';

export function EndAction({
  process,
  confirming,
  onAsk,
  onCancel,
  onKill,
}: {
  process: ProcessRow;
  confirming: boolean;
  onAsk(): void;
  onCancel(): void;
  onKill(signal: KillSignal): void;
}) {
  if (!process.endable) {
    const why = `This process ${process.protectedReason ?? 'cannot be ended'}.`;
    return (
      <span className="protected" title={why}>
        Protected<span className="visually-hidden">: {why}</span>
      </span>
    );
  }
  if (confirming) {
    return (
      <span className="confirm">
        <button type="button" className="link-button danger" onClick={() => onKill('SIGTERM')}>
          End {process.pid}
        </button>
        <button type="button" className="link-button danger" onClick={() => onKill('SIGKILL')}>
          Force
        </button>
        <button type="button" className="link-button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <button type="button" className="link-button" aria-label={`End process ${process.pid} (${process.command})`} onClick={onAsk}>
      End…
    </button>
  );
}
