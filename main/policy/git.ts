/**
 * The git policy: which repository a git tool may work on and how git runs there. Every
 * repository goes through the filesystem policy (its top level, its git folder and the shared
 * one, where a `.git` file or a worktree's `commondir` may point, folders it borrows objects
 * from, and files its settings make git read); its git folders are `.git` folders, whose config
 * and hooks the file tools protect; the repository's own settings that name a program are
 * refused (git-settings.ts); the write tools refuse active hooks; push and pull reach only the
 * remotes the owner allowed (git-remotes.ts), and never a repository the tools can write. The
 * answer is a GitRun the adapter runs as it is.
 */
import os from 'node:os';
import nodePath from 'node:path';
import type { Config } from '../config/schema.js';
import { adapterError } from '../../adapter/contract/errors.js';
import { hideUrlCredentials, type GitRun, type RepositoryFacts } from '../../adapter/contract/git.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { Access, FilesystemPolicy } from './filesystem.js';
import { GIT, GIT_NETWORK, gitOverrides, NO_HOOKS, remoteSideOverride, remoteSideProgram } from './git-helper.js';
import { remoteNameProblem } from './git-names.js';
import { describeIdentity, remoteIdentity, sameIdentity, type RemoteIdentity } from './git-remotes.js';
import { firstRefused, ownerValue, repositoryFiles } from './git-settings.js';
import { isGitCodeFolder } from './secret-patterns.js';
import { leftover } from './sandbox-repos.js';
import type { HelperPlan, ProgramRunner } from './program-runner.js';

const posix = nodePath.posix;

/** What a tool does in the repository: read, write locally, or reach a remote (push: it only reads the working tree). */
export type GitUse = 'read' | 'write' | { push: string } | { pull: string };

export interface GitRequest {
  /** The repository, or a folder inside it: absolute, or relative to the first root. */
  path: string;
  use: GitUse;
  operation: string;
  signal?: AbortSignal;
}

export interface GitTarget {
  run: GitRun;
  facts: RepositoryFacts;
  topLevel: string;
}

type Port = Pick<PolicyPort, 'gitRepository' | 'realpath' | 'lstat' | 'listNames'>;

export class GitPolicy {
  constructor(
    private readonly config: Readonly<Pick<Config, 'git'>>,
    private readonly files: FilesystemPolicy,
    private readonly programs: ProgramRunner,
    private readonly port: Port,
  ) {}

  async open(request: GitRequest): Promise<GitTarget> {
    const { use, operation: op } = request;
    const access: Access = use === 'read' || (typeof use === 'object' && 'push' in use) ? 'read' : 'write';
    const dir = await this.files.resolve(request.path, access, op);
    if (!dir.exists) throw adapterError('NOT_FOUND', op, `${request.path} does not exist`);
    if ((await this.port.lstat(dir.path))?.type === 'file')
      throw adapterError('INVALID_INPUT', op, `${request.path} is a file: give the repository (or a folder in it) as path, and files in paths`);
    const plan = await this.helper(typeof use === 'object', dir.path, op);
    const facts = await this.port.gitRepository(dir.path, { file: plan.file, env: plan.env }, { remotes: typeof use === 'object' });
    if (!facts) throw adapterError('NOT_FOUND', op, `${request.path} is not in a git repository`);
    if (facts.topLevel === null) throw adapterError('PRECONDITION_FAILED', op, `${facts.gitDir} is a bare repository: the git tools work in a working tree`);
    refuseSettings(facts, op);
    await this.checkPlaces(facts, access, op);
    if (use !== 'read') refuseHooks(facts, op);
    const remotes = typeof use === 'object' ? await this.checkRemote(facts, 'push' in use ? 'push' : 'pull', 'push' in use ? use.push : use.pull, op) : [];
    if (plan.sandbox && typeof use === 'object' && 'push' in use) await this.refuseUnwritable(remotes, use.push, op);
    const topLevel = facts.topLevel;
    const run: GitRun = {
      file: plan.file,
      // The git folder checked, not found again: a .git file rewritten after the check (a model's fs.write, a race) cannot point git at another.
      env: { ...plan.env, GIT_DIR: facts.gitDir, GIT_WORK_TREE: topLevel },
      ...(plan.sandbox ? { sandbox: plan.sandbox } : {}),
      cwd: topLevel,
      config: [
        ...gitOverrides(facts.config),
        ...(typeof use === 'object' && (await this.toolWritable(remotes, op))
          ? ['push' in use ? remoteSideOverride(plan.file, use.push, 'push') : remoteSideOverride(plan.file, use.pull, 'pull')]
          : []),
      ],
      timeoutMs: this.config.git.maxRuntimeMs,
      ...(request.signal ? { signal: request.signal } : {}),
      visible: (path) => !this.files.protects(posix.join(topLevel, path), 'read'),
    };
    return { run, facts, topLevel };
  }

  /**
   * Paths a caller named (relative to the top level, or absolute), each through the filesystem
   * policy as an entry (a link is itself, not its target), as git reads them: relative, "/"-separated.
   */
  async paths(target: GitTarget, inputs: readonly string[], access: Access, op: string): Promise<string[]> {
    const out: string[] = [];
    for (const input of inputs) {
      const absolute = posix.isAbsolute(input) ? input : posix.join(target.topLevel, input);
      const entry = await this.files.resolveEntry(absolute, access, op);
      const relative = posix.relative(target.topLevel, entry.path);
      if (relative.startsWith('..') || posix.isAbsolute(relative))
        throw adapterError('PATH_NOT_ALLOWED', op, `${input} is outside the repository ${target.topLevel}`);
      if (relative === '.git' || relative.startsWith('.git/'))
        throw adapterError('PATH_NOT_ALLOWED', op, `${input} is inside the git folder, which git manages itself`);
      out.push(relative === '' ? '.' : relative);
    }
    return out;
  }

  /** Refuses paths git reports it would stage or write when the filesystem rules protect them. */
  checkReported(
    target: Pick<GitTarget, 'topLevel'>,
    paths: readonly string[],
    access: Access,
    op: string,
    doing = access === 'read' ? 'stage' : 'write',
  ): void {
    const hit = paths.find((path) => this.files.protects(posix.join(target.topLevel, path), access));
    if (hit !== undefined)
      throw adapterError(
        'PATH_NOT_ALLOWED',
        op,
        `${hit} is protected by the filesystem rules (secrets, filesystem.deny, git's own code): the git tools do not ${doing} it`,
      );
  }

  /** A clone: the source must be on git.pull, the destination a new folder in a writable root. */
  async clone(url: string, destination: string, op: string, signal?: AbortSignal): Promise<{ run: GitRun; name: string; path: string }> {
    const identity = await this.allowed(url, 'pull', op, `the clone source ${hideUrlCredentials(url)}`);
    if (identity.kind === 'hosted' && /^https?:\/\/[^/]*@/i.test(url))
      throw adapterError('INVALID_INPUT', op, 'a clone URL must not carry a user name or token: your credential helper provides them');
    const target = await this.files.resolve(destination, 'write', op);
    if (target.exists) throw adapterError('ALREADY_EXISTS', op, `${destination} already exists: clone into a new folder`);
    const parent = posix.dirname(target.path);
    const plan = await this.helper(true, parent, op);
    const run: GitRun = {
      file: plan.file,
      env: plan.env,
      ...(plan.sandbox ? { sandbox: plan.sandbox } : {}),
      cwd: parent,
      // No repository yet, so no owner hooksPath was read: a clone runs no hook at all.
      config: [...gitOverrides([]).filter((o) => !o.startsWith('core.hooksPath=')), `core.hooksPath=${NO_HOOKS}`],
      ...((await this.toolWritable([identity], op)) ? { uploadPack: remoteSideProgram(plan.file, 'pull') } : {}),
      timeoutMs: this.config.git.maxRuntimeMs,
      ...(signal ? { signal } : {}),
      visible: (path) => !this.files.protects(posix.join(target.path, path), 'read'),
    };
    return { run, name: posix.basename(target.path), path: target.path };
  }

  private async helper(network: boolean, cwd: string, op: string): Promise<HelperPlan> {
    const plan = await this.programs.helper(network ? GIT_NETWORK : GIT, cwd);
    if (!plan)
      throw adapterError('NOT_FOUND', op, 'git is not installed on this computer (or is found only inside a shared folder, where tools could replace it)');
    return plan;
  }

  /** The top level, the git folders and every borrowed object folder lie in the roots, as the filesystem policy says. */
  private async checkPlaces(facts: RepositoryFacts, access: Access, op: string): Promise<void> {
    const places: Array<[string, string, Access]> = [
      [facts.topLevel!, 'the repository', access],
      [facts.gitDir, 'its git folder (a .git file can point anywhere)', access],
      [facts.commonDir, 'its shared git folder (a worktree names it)', access],
      ...facts.alternates.map((alternate): [string, string, Access] => [alternate, 'a folder it borrows objects from (objects/info/alternates)', 'read']),
    ];
    for (const [place, what, need] of places) {
      try {
        await this.files.resolve(place, need, op);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw adapterError('PATH_NOT_ALLOWED', op, `${what}, ${place}, is refused: ${why}`);
      }
    }
    for (const [place, what] of [
      [facts.gitDir, 'its git folder'],
      [facts.commonDir, 'its shared git folder'],
    ] as const)
      if (!isGitCodeFolder(place, process.platform))
        throw adapterError(
          'PATH_NOT_ALLOWED',
          op,
          `${what}, ${place}, is not a .git folder. The file tools keep the config and hooks git runs code from only in .git folders, so a git folder under another name may hold settings a tool wrote; ` +
            "the git tools work in repositories whose git folder is .git (or a bare name.git), a linked worktree's in one (worktrees/<name>) or a submodule's (.git/modules/<name>)",
        );
    // Its own config files lie in its git folders, checked above (and protected from the file tools).
    const own = new Set([facts.gitDir, facts.commonDir]);
    for (const { entry, file, included } of repositoryFiles(facts.config, facts.topLevel!, os.homedir())) {
      if (included && own.has(nodePath.dirname(file))) continue;
      const what = included
        ? `the repository's config takes settings from ${file} (include.path or includeIf)`
        : `${entry.key} in the repository's own config makes git read ${file}`;
      if (!nodePath.isAbsolute(file)) throw adapterError('PATH_NOT_ALLOWED', op, `${what}, in another user's home folder: refused`, { setting: entry.key });
      await this.files.resolve(file, 'read', op).catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        throw adapterError('PATH_NOT_ALLOWED', op, `${what}, which is refused: ${why}`, { setting: entry.key });
      });
      // Checked now, read again by git a moment later: a file the tools can write could name a program by then.
      if (included && (await this.writable(file, op)))
        throw adapterError(
          'COMMAND_NOT_ALLOWED',
          op,
          `${what}, a file the tools can write: it could name a program by the time git reads it. Include files from outside the writable roots`,
          {
            setting: entry.key,
          },
        );
    }
  }

  /** The remote's URLs for `direction`, each allowed: what they are. */
  private async checkRemote(facts: RepositoryFacts, direction: 'push' | 'pull', name: string, op: string): Promise<RemoteIdentity[]> {
    const problem = remoteNameProblem(name);
    if (problem) throw adapterError('INVALID_INPUT', op, problem);
    const remote = facts.remotes?.find((r) => r.name === name);
    if (!remote) {
      const names = (facts.remotes ?? []).map((r) => r.name).join(', ') || 'none';
      throw adapterError('NOT_FOUND', op, `the repository has no remote named ${name} (its remotes: ${names})`);
    }
    const urls = direction === 'push' ? remote.push : remote.fetch;
    if (urls.length === 0) throw adapterError('PRECONDITION_FAILED', op, `the remote ${name} has no URL`);
    const identities: RemoteIdentity[] = [];
    for (const url of urls) identities.push(await this.allowed(url, direction, op, `the remote ${name} (${hideUrlCredentials(url)})`));
    return identities;
  }

  private async allowed(url: string, direction: 'push' | 'pull', op: string, what: string): Promise<RemoteIdentity> {
    const list = this.config.git[direction];
    const identity = await this.identity(url, 'url', op);
    if ('problem' in identity) throw adapterError('COMMAND_NOT_ALLOWED', op, `${what} cannot be used: ${identity.problem}`);
    for (const entry of list) {
      const allowed = await this.identity(entry, 'entry', op);
      if (!('problem' in allowed) && sameIdentity(identity, allowed)) {
        if (identity.kind === 'local') await this.checkLocalRemote(identity.path, op, what);
        return identity;
      }
    }
    throw adapterError(
      'COMMAND_NOT_ALLOWED',
      op,
      // "git.push is [...]" names the setting, which the tool-name rewriting leaves as it is (tool-names.ts).
      `${what} is ${describeIdentity(identity)}: not an allowed remote (git.${direction} is [${list.join(', ')}]; settings: Git)`,
    );
  }

  /**
   * A local repository in a folder the tools can write: git runs what its own config and hooks
   * name on that side too (receive-pack, upload-pack). So, as for the repository worked in, its
   * git folder must be one whose config and hooks the file tools protect (`.git`, or a bare
   * `name.git`), its own settings naming a program are refused, and so are its active hooks.
   * One outside the writable roots is the owner's alone.
   */
  private async checkLocalRemote(path: string, op: string, what: string): Promise<void> {
    if (!(await this.writable(path, op))) return;
    const plan = await this.helper(false, path, op);
    const facts = await this.port.gitRepository(path, { file: plan.file, env: plan.env }, {});
    if (!facts) throw adapterError('NOT_FOUND', op, `${what} is not a git repository`);
    const { commonDir, gitDir } = facts;
    // git on the remote side opens <path>/.git or <path> itself, never a folder above it (where the probe would have looked next): the one looked at must be that one.
    // A bare one holds no .git of its own: one there (a file the tools wrote before they were kept from it) can send git to another repository at any moment.
    // A folder there holding nothing but folders and empty files, which git passes by, is the command sandbox's (the mount point of the empty read-only one it puts there, and what bwrap leaves: sandbox-repos.ts).
    const inner = nodePath.join(path, '.git');
    const innerFacts = await this.port.lstat(inner);
    const passedBy = innerFacts?.type === 'directory' && (await leftover(this.port, inner));
    if (gitDir === path && innerFacts !== null && !passedBy)
      throw adapterError('COMMAND_NOT_ALLOWED', op, `${what} holds a .git of its own, which git on its side would open instead of it: remove it`);
    if (gitDir !== path && gitDir !== nodePath.join(path, '.git'))
      throw adapterError(
        'COMMAND_NOT_ALLOWED',
        op,
        `${what} is not itself a git repository (${gitDir}, above or beside it, is), so git would open another repository there than the one looked at`,
      );
    if (!/\.git$/i.test(nodePath.basename(commonDir)) || (gitDir !== commonDir && !gitDir.startsWith(`${commonDir}${nodePath.sep}`)))
      throw adapterError(
        'COMMAND_NOT_ALLOWED',
        op,
        `${what} is a repository in a folder the tools can write whose git folder (${commonDir}) is not named .git or *.git, so nothing keeps the settings and hooks git runs there from being a tool's: name it something.git`,
      );
    refuseSettings(facts, op);
    refuseHooks(facts, op);
    for (const alternate of facts.alternates)
      await this.files.resolve(alternate, 'read', op).catch((error: unknown) => {
        throw adapterError(
          'PATH_NOT_ALLOWED',
          op,
          `${what} borrows objects from ${alternate}, which is refused: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  }

  /** Whether a remote is a local repository a tool could have written: git then runs on its side with the overrides of git-helper.ts. */
  private async toolWritable(remotes: readonly RemoteIdentity[], op: string): Promise<boolean> {
    for (const remote of remotes) if (remote.kind === 'local' && (await this.writable(remote.path, op))) return true;
    return false;
  }

  /** In the command sandbox git can write only the writable roots: a push to a local remote elsewhere is refused before it fails there. */
  private async refuseUnwritable(remotes: readonly RemoteIdentity[], name: string, op: string): Promise<void> {
    for (const remote of remotes)
      if (remote.kind === 'local' && !(await this.writable(remote.path, op)))
        throw adapterError(
          'PRECONDITION_FAILED',
          op,
          `the remote ${name} (${remote.path}) lies outside the writable roots, and git runs in the command sandbox, where only they can be written: ` +
            'make its folder a writable root (it is then checked as a repository the tools can write), or push from a terminal',
        );
  }

  /** Whether the file tools could write `path` now (what they may write, a model may have written). */
  private writable(path: string, op: string): Promise<boolean> {
    return this.files.resolve(path, 'write', op).then(
      () => true,
      () => false,
    );
  }

  /**
   * A local repository is compared by where it really is, but never led there by a link the tools
   * could have made: a listed one written in a writable root whose real place lies outside every
   * writable root (a link to another repository of yours) is refused, and a URL, which git reads
   * again, must name the repository where it really is.
   */
  private async identity(text: string, form: 'entry' | 'url', op: string): Promise<RemoteIdentity | { problem: string }> {
    const identity = remoteIdentity(text, form);
    if ('problem' in identity || identity.kind !== 'local') return identity;
    const real = await this.port.realpath(identity.path).catch(() => identity.path);
    // A URL is read again by git, inside the sandbox, where a link can lead elsewhere (/proc/self/cwd is git's own folder there): it names the repository where it really is.
    if (real !== identity.path && form === 'url')
      return { problem: `${identity.path} leads through a link to ${real}: point the remote at the repository where it really is` };
    if (real !== identity.path && (await this.files.insideWritableRoot(identity.path)) && !(await this.writable(real, op)))
      return {
        problem: `${identity.path} leads through a link in a folder the tools can write to ${real}, outside them, and a tool could have made that link: list the repository, and point the remote at it, where it really is`,
      };
    return { kind: 'local', path: real };
  }
}

function refuseSettings(facts: RepositoryFacts, op: string): void {
  const refused = firstRefused(facts.config);
  if (!refused) return;
  const { entry, reason } = refused;
  const where = entry.origin.replace(/^file:/, '');
  throw adapterError(
    'COMMAND_NOT_ALLOWED',
    op,
    `${entry.key} is set by the repository's own config (${where}): it ${reason}. The git tools refuse a repository whose own settings name a program; ` +
      `remove it there (git config --unset ${entry.key}), or set it in your global config if you trust it`,
    { setting: entry.key },
  );
}

function refuseHooks(facts: RepositoryFacts, op: string): void {
  if (facts.hooks.length === 0 || ownerValue(facts.config, 'core.hookspath') !== undefined) return;
  throw adapterError(
    'COMMAND_NOT_ALLOWED',
    op,
    `the repository has active hooks (${facts.hooks.join(', ')} in ${facts.hooksDir}): the git tools never run a repository's hooks, and do not skip the checks they make either, ` +
      'so they make no change here (reading still works). Remove or rename the hooks (pre-commit.off), or point core.hooksPath in your global config at hooks you trust',
    { setting: 'hooks' },
  );
}
