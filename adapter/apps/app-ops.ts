/**
 * The adapter operations behind app.*, browser.open and service.* (issue 5). Plain TypeScript:
 * policy (which app, which URL, which service) is decided by the tool layer before these run;
 * these only validate what they must to be safe on their own (absolute paths, no option-like
 * names, http(s) URLs) and do the OS work without a shell.
 */

export interface AppSpec {
  /** Absolute path of the executable (the configured `desktop.apps.<name>.path`). */
  path: string;
  /** Fixed args followed by any allowed extra args. */
  args: readonly string[];
}

export interface CloseAppOptions {
  /** Close only this process, and only if it runs the app's executable. */
  pid?: number;
  /** Kill (SIGKILL / taskkill /F) what is still running after the grace period. */
  force?: boolean;
}

export interface CloseAppResult {
  /** Processes of the app that are gone. */
  closed: number[];
  /** Processes that were asked to close but still run (only without `force`, or if even a kill failed). */
  stillRunning: number[];
}

export type ServiceManager = 'systemd' | 'launchd' | 'windows';
export type ServiceAction = 'start' | 'stop' | 'restart';

export interface ServiceStatus {
  manager: ServiceManager;
  /** The manager's own state word: systemd ActiveState (active, inactive, failed...), launchd
   * state (running, not running...), Windows (running, stopped, start-pending...). */
  state: string;
  /** Whether the manager starts it automatically (unknown for systemd static units and
   * launchd jobs without an override). */
  enabled?: boolean;
  /** Extra detail: systemd SubState, launchd pid, Windows start type. */
  detail?: string;
}

export interface DesktopAppOps {
  launchApp(app: AppSpec): Promise<{ pid: number }>;
  /** Closes processes of this executable started with these fixed args (args are matched where the OS shows argv: Linux). */
  closeApp(app: Pick<AppSpec, 'path' | 'args'>, options?: CloseAppOptions): Promise<CloseAppResult>;
  openUrl(url: string): Promise<void>;
  serviceStatus(name: string): Promise<ServiceStatus>;
  serviceControl(name: string, action: ServiceAction): Promise<ServiceStatus>;
}
