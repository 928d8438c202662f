/**
 * What exposes each tool: a grant is the settings that must be on (a test on the config) and the
 * same settings in the owner's words, which a call to an ungranted tool is answered with. Every
 * tool definition carries one (main/mcp/tool.ts); tools of a family share theirs. A new tool
 * that needs a new setting adds its grant here, beside the others, so the words stay alike.
 */
import type { Config } from '../config/schema.js';
import { desktopAllows } from './desktop.js';

export interface Grant {
  /** The settings that grant it, as a refusal names them ("shell.enabled and a program in ... (settings: Commands)"). */
  readonly words: string;
  granted(config: Readonly<Config>): boolean;
}

function grant(words: string, granted: (config: Readonly<Config>) => boolean): Grant {
  return Object.freeze({ words, granted });
}

const canRead = (c: Readonly<Config>) => c.filesystem.read && c.filesystem.roots.length > 0;
const canWrite = (c: Readonly<Config>) => c.filesystem.write && c.filesystem.roots.some((r) => typeof r === 'string' || !r.readOnly);
const canRun = (c: Readonly<Config>) => c.shell.enabled && c.shell.allowedCommands.length > 0;
const display = (c: Readonly<Config>) => c.desktop.hostDisplayAccess;
const hasChecks = (c: Readonly<Config>) => c.checks.projects.length > 0 && canRead(c);

export const GRANT = Object.freeze({
  /** system.info: always there, so a model can find out what is granted. */
  always: grant('nothing (always exposed)', () => true),
  filesRead: grant('filesystem.read and a root in filesystem.roots (settings: Files)', canRead),
  filesWrite: grant('filesystem.write and a writable root (settings: Files)', canWrite),
  /** fs.edit and fs.patch read what they change and answer with a diff of it: they need both. */
  filesEdit: grant('filesystem.read, filesystem.write and a writable root (settings: Files)', (c) => canRead(c) && canWrite(c)),
  chatgptSearch: grant('chatgpt.searchFetch with filesystem.read and a root', (c) => c.chatgpt.searchFetch && canRead(c)),
  commands: grant('shell.enabled and a program in shell.allowedCommands (settings: Commands)', canRun),
  processList: grant('process.list (settings: Processes)', (c) => c.process.list),
  inventory: grant('system.inventory (settings: Processes)', (c) => c.system.inventory),
  /** fs.download: open-world network reads written into a root, so its own switch besides filesystem.write. */
  download: grant('download.enabled, filesystem.write and a writable root (settings: Files)', (c) => c.download.enabled && canWrite(c)),
  processKill: grant('process.kill (settings: Processes)', (c) => c.process.kill),
  screen: grant('desktop.hostDisplayAccess and desktop.screen (settings: Desktop)', (c) => desktopAllows(c, 'screen')),
  input: grant('desktop.hostDisplayAccess and desktop.input (settings: Desktop)', (c) => desktopAllows(c, 'input')),
  windows: grant('desktop.hostDisplayAccess and desktop.windows (settings: Desktop)', (c) => display(c) && c.desktop.windows),
  clipboardRead: grant('desktop.hostDisplayAccess and desktop.clipboardRead (settings: Desktop)', (c) => display(c) && c.desktop.clipboardRead),
  apps: grant('desktop.hostDisplayAccess, desktop.appControl and an app in desktop.apps (settings: Desktop)', (c) => display(c) && c.desktop.appControl),
  browser: grant('desktop.hostDisplayAccess and desktop.browser (settings: Desktop)', (c) => display(c) && c.desktop.browser),
  serviceStatus: grant('a service in services.allowed (settings: Services)', (c) => c.services.allowed.length > 0),
  /** audit.recent / audit.search: a model reads the audit log, every client's calls included. */
  auditRead: grant('audit.tools with audit.enabled (settings: the config file)', (c) => c.audit.enabled && c.audit.tools),
  serviceControl: grant('services.control and a service in services.allowed (settings: Services)', (c) => c.services.allowed.length > 0 && c.services.control),
  gitRead: grant('git.read, filesystem.read and a root (settings: Git)', (c) => c.git.read && canRead(c)),
  gitWrite: grant('git.write, filesystem.write and a writable root (settings: Git)', (c) => c.git.write && canWrite(c)),
  gitPush: grant('a remote in git.push, filesystem.read and a root (settings: Git)', (c) => c.git.push.length > 0 && canRead(c)),
  gitPull: grant('a remote in git.pull, filesystem.write and a writable root (settings: Git)', (c) => c.git.pull.length > 0 && canWrite(c)),
  checks: grant('a project in checks.projects, filesystem.read and a root (settings: Git)', hasChecks),
  /** git.commit_verified runs the checks, then commits: both grants. */
  verifiedCommit: grant('git.write, a project in checks.projects and a writable root (settings: Git)', (c) => c.git.write && canWrite(c) && hasChecks(c)),
});
