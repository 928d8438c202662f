/**
 * The repository settings the git tools refuse. git runs programs its settings name: hooks,
 * core.fsmonitor, pagers, external diff and textconv drivers, clean/smudge filters, merge
 * drivers, credential helpers, ssh commands, proxies, signing programs, `!` aliases, remote
 * helpers (`ext::`). Set by the owner (system or global config) they are the owner's choice and
 * run, inside the command sandbox; set in a repository's own config (`.git/config`,
 * `config.worktree`, or a file they include) they are refused before any git run, naming the
 * setting: whoever wrote the repository would otherwise choose what runs.
 *
 * Matched by the setting's last part (so a driver or helper under any name is caught) and by a
 * few whole names; pure, for the policy and the tests.
 */
import path from 'node:path';
import type { GitConfigEntry } from '../../adapter/contract/git.js';
import { inHome } from './home-path.js';

/** Last name parts that name a program (or where git sends data: proxies, cookie files). */
const PROGRAM_PARTS: Readonly<Record<string, string>> = {
  hookspath: 'runs the hooks in the folder it names',
  fsmonitor: 'runs the program it names on every status and diff',
  pager: 'runs the program it names on output',
  editor: 'runs the program it names as an editor',
  askpass: 'runs the program it names to ask for passwords',
  sshcommand: 'runs the command it names to reach remotes',
  gitproxy: 'runs the command it names to reach git:// remotes',
  alternaterefscommand: 'runs the command it names during fetch and push',
  external: 'runs the program it names for every diff',
  textconv: 'runs the program it names to show files',
  command: 'runs the command it names',
  cmd: 'runs the command it names',
  driver: 'runs the merge driver it names',
  clean: 'runs the filter program it names when files are staged',
  smudge: 'runs the filter program it names when files are checked out',
  process: 'runs the filter program it names',
  helper: 'runs the credential helper it names',
  program: 'runs the signing program it names',
  defaultkeycommand: 'runs the command it names to find a signing key',
  uploadpack: 'runs the program it names for fetches',
  receivepack: 'runs the program it names for pushes',
  vcs: 'runs the remote helper program it names',
  proxy: 'sends git traffic through the proxy it names',
  cookiefile: 'reads and writes the cookie file it names',
  insteadof: 'rewrites remote URLs (to another repository, or a program-running ext:: remote)',
  pushinsteadof: 'rewrites push URLs (to another repository, or a program-running ext:: remote)',
  tocmd: 'runs the command it names',
  cccmd: 'runs the command it names',
};

/** Values that name no program: a boolean (core.fsmonitor=false, pager.log=false). */
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Why git would run something this repository-scoped setting names, or null. */
export function refusedReason(entry: Pick<GitConfigEntry, 'key' | 'value'>): string | null {
  const key = entry.key.toLowerCase();
  const value = entry.value ?? '';
  const parts = key.split('.');
  const section = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (section === 'alias') return 'defines a git command, which can run any program (a "!" alias)';
  // Certificate checks, name resolution (curloptResolve), headers, redirects: a repository could send an allowed remote's traffic, with your credential, to any address.
  if (section === 'http')
    return "changes how git reaches HTTPS remotes (certificate checks, where a host name resolves, headers), which could send an allowed remote's traffic and your credential elsewhere";
  if (section === 'pager' && !BOOLEAN.test(value)) return PROGRAM_PARTS.pager!;
  if (section === 'protocol' && last === 'allow') return 'allows remote transports (ext:: runs programs) the git tools keep off';
  if (section === 'submodule' && last === 'update' && value.startsWith('!')) return 'runs the command it names on submodule updates';
  if (section === 'remote' && (last === 'url' || last === 'pushurl') && /^[A-Za-z][A-Za-z0-9+.-]*::/.test(value))
    return `uses the ${value.split('::')[0]}:: remote helper, which runs programs`;
  // core.fsmonitor=false (and true: git's own daemon) name no program.
  if (key === 'core.fsmonitor' && BOOLEAN.test(value)) return null;
  // A filter's "required" and a diff driver's "binary"/"cachetextconv" name nothing; a credential's username neither.
  return PROGRAM_PARTS[last] ?? null;
}

/** Repository settings whose value is a file git reads (a relative one from the working tree's top). */
const FILE_KEYS: ReadonlySet<string> = new Set([
  'core.excludesfile',
  'core.attributesfile',
  'mailmap.file',
  'diff.orderfile',
  'blame.ignorerevsfile',
  'commit.template',
  'gpg.ssh.allowedsignersfile',
  'gpg.ssh.revocationfile',
]);

/**
 * Files the repository's own settings make git read, each with the setting behind it: the files
 * its config includes (include.path, includeIf: where its settings came from) and file-valued
 * settings. Relative paths are git's: from the top level (where git runs). `home` expands `~/`;
 * `~user/` (another user's home) stays as written: not absolute, which the policy refuses.
 */
export function repositoryFiles(
  config: readonly GitConfigEntry[],
  topLevel: string,
  home: string,
): Array<{ entry: GitConfigEntry; file: string; included: boolean }> {
  const found = new Map<string, { entry: GitConfigEntry; file: string; included: boolean }>();
  const at = (file: string) => inHome(file, home, process.platform === 'win32') ?? (file.startsWith('~') ? file : path.resolve(topLevel, file));
  for (const entry of config) {
    if (!isRepositoryScope(entry)) continue;
    const origin = entry.origin.startsWith('file:') ? at(entry.origin.slice('file:'.length)) : null;
    if (origin && !found.has(origin)) found.set(origin, { entry, file: origin, included: true });
    if (FILE_KEYS.has(entry.key.toLowerCase()) && entry.value) {
      const file = at(entry.value);
      if (!found.has(file)) found.set(file, { entry, file, included: false });
    }
  }
  return [...found.values()];
}

/** Settings git reads from the repository itself (its config, a worktree's, and files they include). */
export function isRepositoryScope(entry: Pick<GitConfigEntry, 'scope'>): boolean {
  return entry.scope === 'local' || entry.scope === 'worktree';
}

/** The first refused setting of the repository's own, if any. */
export function firstRefused(config: readonly GitConfigEntry[]): { entry: GitConfigEntry; reason: string } | null {
  for (const entry of config) {
    if (!isRepositoryScope(entry)) continue;
    const reason = refusedReason(entry);
    if (reason) return { entry, reason };
  }
  return null;
}

/** The owner's own (system or global) value of a setting, if set. */
export function ownerValue(config: readonly GitConfigEntry[], key: string): string | null | undefined {
  let found: string | null | undefined;
  for (const entry of config) if ((entry.scope === 'system' || entry.scope === 'global') && entry.key.toLowerCase() === key) found = entry.value;
  return found;
}
