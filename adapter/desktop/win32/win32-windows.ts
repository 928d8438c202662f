/**
 * Windows: top-level windows through user32 (the calls Task Manager and Alt+Tab rest on), from
 * one long-lived PowerShell session (user32-script.ts) so a call costs a line, not a PowerShell
 * start. UI Automation's WindowPattern would wrap the same calls, slower, and misses windows
 * whose app exposes no UIA provider. Ids are window handles (decimal), which Windows does not
 * reuse while a window lives; only listed windows are acted on.
 */
import type { WindowAction, WindowPlacement } from '../../contract/desktop.js';
import { PowerShellSession } from '../../os/powershell-session.js';
import type { BackendWindow, WindowBackend } from '../desktop-backend.js';
import { fromScriptWindow, readScriptAnswer, type ScriptAnswer } from '../script-window.js';
import { actionDone, knownWindow, placementDone, settle } from '../window-settle.js';
import { USER32_SCRIPT } from './user32-script.js';

/** The first request compiles the script's C# (a few seconds on a slow machine). */
const TIMEOUT_MS = 20_000;

export class Win32Windows implements WindowBackend {
  constructor(private readonly session: PowerShellSession = PowerShellSession.forScript('the window tools', USER32_SCRIPT, TIMEOUT_MS)) {}

  readonly list = async (operation: string): Promise<BackendWindow[]> => {
    const answer = await this.ask('list', operation);
    return (answer.windows ?? []).map((w) => fromScriptWindow(w));
  };

  async act(id: string, action: WindowAction, operation: string): Promise<void> {
    await knownWindow(this.list, id, operation);
    await this.ask(`${action} ${id}`, operation);
    await settle(this.list, id, operation, (w) => actionDone(action, w));
  }

  async moveResize(id: string, placement: WindowPlacement, operation: string): Promise<void> {
    await knownWindow(this.list, id, operation);
    const value = (n: number | undefined) => (n === undefined ? '-' : String(Math.round(n)));
    await this.ask(`place ${id} ${value(placement.x)} ${value(placement.y)} ${value(placement.width)} ${value(placement.height)}`, operation);
    await settle(this.list, id, operation, (w) => placementDone(placement, w));
  }

  close(): void {
    this.session.close();
  }

  private async ask(line: string, operation: string): Promise<ScriptAnswer> {
    return readScriptAnswer(await this.session.request(line, operation), line.split(' ')[1], operation);
  }
}
