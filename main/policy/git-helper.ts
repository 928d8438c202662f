/**
 * git as a helper of the program runner (program-runner.ts): found on the server's PATH outside
 * every root, inside the command sandbox whenever commands would be, with an environment built
 * from nothing, and `-c` overrides on every run that take back what a setting could still make
 * git run. The owner's global config (~/.gitconfig: identity, aliases, credential helpers,
 * filters such as git-lfs) is read through HOME and XDG_CONFIG_HOME and respected.
 */
import type { GitConfigEntry } from '../../adapter/contract/git.js';
import type { HelperSpec } from './program-runner.js';
import { ownerValue } from './git-settings.js';

const ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  // Messages git writes in one language, so the tools can tell "nothing to commit" from a failure.
  LC_ALL: 'C',
  // Never wait for a person: no terminal prompt, no askpass program (core.askPass included), no editor, no pager.
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  // Paths are paths: `*.ts` names a file called *.ts, never every TypeScript file.
  GIT_LITERAL_PATHSPECS: '1',
  // Transports that run no program of a remote's choosing; ext:: and other helpers are off.
  GIT_ALLOW_PROTOCOL: 'https:ssh:git:file',
  // A partial clone would fetch missing objects from its remote on a read: reads stay local.
  GIT_NO_LAZY_FETCH: '1',
  GIT_ADVICE: '0',
});

/** Reads and local writes: no network inside the sandbox (unless shell.network gives commands one). */
export const GIT: HelperSpec = Object.freeze({
  name: 'git',
  runsFileCode: true,
  fromBase: ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'USER', 'LOGNAME', 'TZ'],
  env: ENVIRONMENT,
});

/** git_push, git_pull, git_clone: the network is what their grant allows (to the allowed remotes). */
export const GIT_NETWORK: HelperSpec = Object.freeze({ ...GIT, network: true });

/**
 * `-c` overrides on every run. Hooks: the repository's never run (a repository whose own config
 * sets core.hooksPath is refused before this, and the write tools refuse one with active hooks);
 * the owner's global core.hooksPath is kept. Submodules are never entered, not even to see whether
 * they changed (a status inside one runs what its own config names, and that config was not looked
 * at: a model that can write files can plant one), and never pushed or fetched.
 */
export function gitOverrides(config: readonly GitConfigEntry[]): string[] {
  const overrides = [
    'core.fsmonitor=false',
    'core.pager=cat',
    'core.quotePath=false',
    'color.ui=false',
    'submodule.recurse=false',
    'diff.ignoreSubmodules=all',
    'status.submoduleSummary=false',
    'push.recurseSubmodules=no',
    'fetch.recurseSubmodules=false',
    'diff.noprefix=false',
    'diff.mnemonicPrefix=false',
    'diff.relative=false',
    'log.showSignature=false',
  ];
  if (ownerValue(config, 'core.hookspath') === undefined) overrides.push(`core.hooksPath=${NO_HOOKS}`);
  return overrides;
}

/** A folder that cannot hold a hook (a file), so git finds none. */
export const NO_HOOKS = '/dev/null';

/**
 * What git runs on the other side of a local remote a tool could have written (in a writable
 * root), as `-c remote.<name>.receivepack` / `uploadpack`: that repository's own hooks and the
 * programs its config names stay off there too. The policy looked at that repository first and
 * refused any, but a tool could make them between that look and git's run; the `-c` overrides
 * the runs on this side take do not reach the other side (git clears them for its local
 * transport). Run by the shell, so the program's path is quoted.
 */
export function remoteSideOverride(git: string, name: string, direction: 'push' | 'pull'): string {
  return `remote.${name}.${direction === 'push' ? 'receivepack' : 'uploadpack'}=${remoteSideProgram(git, direction)}`;
}

/** The program line itself (a clone takes it as --upload-pack: it sets its own, over any remote.origin.uploadpack). */
export function remoteSideProgram(git: string, direction: 'push' | 'pull'): string {
  const quoted = `'${git.replaceAll("'", `'\\''`)}'`;
  const common = [`core.hooksPath=${NO_HOOKS}`, 'core.alternateRefsCommand=true', 'core.fsmonitor=false'];
  const own = direction === 'push' ? ['receive.autogc=false', 'receive.denyCurrentBranch=refuse', 'receive.procReceiveRefs='] : [];
  return `${quoted} ${[...common, ...own].map((c) => `-c ${c}`).join(' ')} ${direction === 'push' ? 'receive-pack' : 'upload-pack'}`;
}
