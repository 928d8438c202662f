/**
 * Who runs programs inside the command sandbox. The sandbox is set up (and a missing mechanism
 * refused at start) when any of them is on, whatever shell.enabled says: git and the project
 * checks run inside it too (program-runner.ts). A new client is one line here.
 */
import type { Config } from '../config/schema.js';

type SandboxConfig = Readonly<Pick<Config, 'shell'>> & Partial<Readonly<Pick<Config, 'git' | 'checks'>>>;

const CLIENTS: ReadonlyArray<(config: SandboxConfig) => boolean> = [
  /** shell.exec, process.start */
  (c) => c.shell.enabled,
  /** the git tools (hooks, filters and fsmonitor are code a repository can name) */
  (c) => !!c.git && (c.git.read || c.git.write || c.git.push.length > 0 || c.git.pull.length > 0),
  /** verify_changes (a project's scripts are code its files name) */
  (c) => (c.checks?.projects.length ?? 0) > 0,
];

export function sandboxNeeded(config: SandboxConfig): boolean {
  return CLIENTS.some((client) => client(config));
}
