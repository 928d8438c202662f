/**
 * Configurations that are valid but cannot work as the owner probably means, for `config
 * check` (the settings window shows its own warnings from the same lists). Pure: what is on
 * disk comes in as `facts`.
 */
import { anyCommandWarning } from '../policy/command-reach.js';
import { BUILT_IN_SECRET_PATTERNS, compilePatterns, findMatch, wholePath } from '../policy/secret-patterns.js';
import { resolveSandbox } from '../policy/sandbox-mode.js';
import { remoteIdentity } from '../policy/git-remotes.js';
import { isCodeRunner } from './code-runners.js';
import type { Config } from './schema.js';
import { secretInUrl } from './shown-url.js';
import { plainSecretPlaces } from './plain-secrets.js';
import { refHint } from './sections/gateway.js';

export interface DiskFacts {
  /** What is at an absolute path: a directory, something else, or nothing. */
  kind(path: string): 'directory' | 'other' | 'missing';
  /** The OS (process.platform): what shell.sandbox "auto" means depends on it. */
  platform: string;
}

export function configWarnings(config: Readonly<Config>, disk: DiskFacts): string[] {
  const warnings: string[] = [];
  const { filesystem, shell, desktop, services, process: processes } = config;

  // Patterns are matched against whole paths, so one that names a root's own place refuses all of it.
  const platform = disk.platform as NodeJS.Platform;
  const patterns = [
    ...(filesystem.protectSecrets ? compilePatterns(BUILT_IN_SECRET_PATTERNS, 'built-in', platform) : []),
    ...compilePatterns(filesystem.deny, 'deny', platform),
  ];
  filesystem.roots.forEach((root, i) => {
    const path = typeof root === 'string' ? root : root.path;
    const covering = findMatch(patterns, wholePath(path, platform));
    if (covering) {
      const setting = covering.origin === 'deny' ? 'filesystem.deny' : 'filesystem.protectSecrets';
      warnings.push(`filesystem.roots[${i}]: ${path} itself matches the pattern "${covering.source}" (${setting}), so every file in it is refused`);
    }
    const kind = disk.kind(path);
    if (kind === 'missing') warnings.push(`filesystem.roots[${i}]: ${path} does not exist (tools will refuse paths in it until it does)`);
    if (kind === 'other') warnings.push(`filesystem.roots[${i}]: ${path} is not a directory`);
  });
  if (filesystem.write && !filesystem.roots.some((r) => typeof r === 'string' || !r.readOnly)) {
    warnings.push('filesystem.write is on, but every root is read-only (or none is configured): no writing tool is offered');
  }
  if (!filesystem.read && !filesystem.write && filesystem.roots.length > 0)
    warnings.push('filesystem.roots are set, but filesystem.read and filesystem.write are both off');

  if (!shell.enabled && shell.allowedCommands.length > 0) warnings.push('shell.allowedCommands is set, but shell.enabled is false: no command can run');
  if (shell.enabled && shell.allowedCommands.length === 0) warnings.push('shell.enabled is on, but shell.allowedCommands is empty: no command can run');
  if (shell.enabled) {
    if (shell.allowedCommands.includes('*')) {
      // The settings window shows the same sentence for the same config.
      warnings.push(`shell.allowedCommands is ["*"]: ${anyCommandWarning(resolveSandbox(shell, desktop.hostDisplayAccess, disk.platform))}`);
    }
    const runners = shell.allowedCommands.filter((c) => c !== '*' && isCodeRunner(c));
    if (runners.length > 0) {
      warnings.push(
        `shell.allowedCommands: ${runners.join(', ')} can run any code they are given (scripts, plugins, hooks): allowing one is like allowing every program`,
      );
    }
  }

  const families = (['screen', 'input', 'browser', 'appControl'] as const).filter((f) => desktop[f]);
  if (!desktop.hostDisplayAccess && families.length > 0) {
    warnings.push(
      `desktop.${families.join(', desktop.')} ${families.length === 1 ? 'is' : 'are'} on, but the master switch desktop.hostDisplayAccess is off: no desktop tool is offered`,
    );
  }
  if (desktop.appControl && Object.keys(desktop.apps).length === 0) warnings.push('desktop.appControl is on, but desktop.apps lists no application');
  if (services.control && services.allowed.length === 0) warnings.push('services.control is on, but services.allowed lists no service');
  if (processes.kill && !processes.list) warnings.push('process.kill is on without process.list: the model must guess process ids');
  if (config.download.testLoopbackOrigin !== undefined)
    warnings.push(
      `download.testLoopbackOrigin is set: fs.download may reach ${config.download.testLoopbackOrigin} on this computer (a setting for tests; remove it)`,
    );
  if (config.download.enabled && !filesystem.write) warnings.push('download.enabled is on, but filesystem.write is off: fs.download is not offered');
  warnings.push(...unreachablePushes(config, disk.platform));
  for (const entry of config.gateway.servers) {
    if (entry.url !== undefined && secretInUrl(entry.url))
      warnings.push(
        `gateway.servers "${entry.name}": its url holds what looks like a key, kept in plain text in this file (it is printed as <redacted>); if the server accepts one, use bearerToken with a stored secret instead`,
      );
    for (const where of plainSecretPlaces(entry)) {
      const how = where.startsWith('env ')
        ? refHint(entry.name, where.slice(4))
        : `pass it through env as a reference instead (${refHint(entry.name, 'TOKEN')})`;
      warnings.push(
        `gateway.servers "${entry.name}": ${where} holds what looks like a secret (a password in a URL, a key, a token, a webhook), kept in plain text in this file (printed as <redacted>); ${how}`,
      );
    }
  }
  return warnings;
}

/** Local repositories on git.push that git, in the command sandbox, cannot write (outside the writable roots): the git policy refuses pushes to them. */
function unreachablePushes(config: Readonly<Config>, platform: string): string[] {
  const { filesystem, shell, desktop, git } = config;
  if (resolveSandbox(shell, desktop.hostDisplayAccess, platform).mode === 'off') return [];
  const writable = filesystem.write ? filesystem.roots.flatMap((r) => (typeof r === 'string' ? [r] : r.readOnly ? [] : [r.path])) : [];
  const inside = (path: string, root: string) => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
  return git.push.flatMap((entry) => {
    const identity = remoteIdentity(entry);
    if ('problem' in identity || identity.kind !== 'local' || writable.some((root) => inside(identity.path, root))) return [];
    return [
      `git.push lists ${identity.path}, a local repository outside the writable roots: git runs in the command sandbox, where only they can be written, so a push to it is refused; make its folder a writable root, or push to it from a terminal`,
    ];
  });
}
