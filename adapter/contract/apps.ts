/**
 * The adapter operations behind app.launch and app.close. Which app may run is decided by the
 * policy before these run; these only validate what they must to be safe on their own
 * (absolute paths) and do the OS work without a shell.
 *
 * For an adapter author: start the executable with exactly these args (no shell, no PATH
 * search) and say its pid; close only processes of that executable started with those args.
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

export interface AppOps {
  launchApp(app: AppSpec): Promise<{ pid: number }>;
  /** Closes processes of this executable started with these fixed args (args are matched where the OS shows argv: Linux). */
  closeApp(app: Pick<AppSpec, 'path' | 'args'>, options?: CloseAppOptions): Promise<CloseAppResult>;
}
