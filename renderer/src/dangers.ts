/**
 * Grants that hand over much more than they seem to, each with the one-line warning shown
 * next to the control while it is on.
 */
import { isCodeRunner } from '../../main/config/code-runners.js';
import { anyCommandWarning } from '../../main/policy/command-reach.js';
import { resolveSandbox } from '../../main/policy/sandbox-mode.js';
import type { Draft } from './draft.js';

export const WARNINGS = {
  codeRunner:
    'Shells, interpreters, git, package managers, build tools and programs like env, find, sed, sort or xdg-open run any code they are given: allowing one is like allowing every program.',
  homeRoot: 'Shares your whole home folder, including keys and app data.',
  fileSystemRoot: 'Shares the entire file system.',
  remoteHost: 'Other computers on the network can reach this server; only the token stops them.',
  hostDisplay: 'The model can see your screen and use mouse, keyboard and apps as allowed below.',
} as const;

export interface Environment {
  homeDir: string;
  platform: string;
}

export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/** The warning for one shared folder, or null. */
export function rootWarning(path: string, env: Environment): string | null {
  const normalized = normalize(path, env.platform);
  if (normalized === '') return null;
  if (isFileSystemRoot(normalized, env.platform)) return WARNINGS.fileSystemRoot;
  if (normalized === normalize(env.homeDir, env.platform)) return WARNINGS.homeRoot;
  return null;
}

/** What "*" hands over depends on the sandbox in effect (the same sentence config check prints). */
export function commandsWarning(draft: Draft, platform: string): string | null {
  if (!draft.shell.enabled) return null;
  if (draft.shell.allowedCommands.includes('*')) return anyCommandWarning(resolveSandbox(draft.shell, draft.desktop.hostDisplayAccess, platform));
  return draft.shell.allowedCommands.some(isCodeRunner) ? WARNINGS.codeRunner : null;
}

export function hostWarning(draft: Draft): string | null {
  return isLoopbackHost(draft.server.host) ? null : WARNINGS.remoteHost;
}

export function displayWarning(draft: Draft): string | null {
  return draft.desktop.hostDisplayAccess ? WARNINGS.hostDisplay : null;
}

function normalize(path: string, platform: string): string {
  let p = path.trim();
  if (platform === 'win32') p = p.replace(/\//g, '\\').toLowerCase();
  // Trailing separators do not change the folder (but keep a root's own separator).
  while (p.length > 1 && /[\\/]$/.test(p) && !/^[a-z]:\\$/i.test(p)) p = p.slice(0, -1);
  return p;
}

function isFileSystemRoot(path: string, platform: string): boolean {
  if (path === '/') return true;
  return platform === 'win32' && /^[a-z]:\\?$/i.test(path);
}
