/**
 * The command policy: turns a shell.exec request into an exact plan (real
 * executable, argv, cwd, complete environment, timeout) or refuses it, before anything is
 * spawned. The allow-list is an argv allow-list, never a pattern over shell strings.
 */
import nodePath from 'node:path';
import type { Config } from '../config/schema.js';
import { adapterError } from '../../adapter/contract/errors.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { HandleLimits } from '../../adapter/contract/processes.js';
import type { FilesystemPolicy } from './filesystem.js';
import { EnvironmentPolicy } from './environment.js';
import type { SandboxPolicy } from './sandbox.js';
import type { captureDenial as CaptureDenial } from './capture-gate.js';
import type { SandboxPlan } from '../../adapter/contract/sandbox.js';

export interface ShellRequest {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  promoteAfterMs?: number;
}

export interface ShellPlan {
  /** Real absolute path of the executable that will run. */
  file: string;
  /** The name it runs under (where it was found), for programs that look at argv[0] (busybox). */
  argv0: string;
  args: string[];
  cwd: string | undefined;
  env: Record<string, string>;
  /** Kill time of the command while it runs inside the call (and under a handle with keepTimeout). */
  timeoutMs: number;
  maxOutputBytes: number;
  /** Hand a command still running after this long to a process handle (at most timeoutMs). */
  promoteAfterMs?: number;
  /** The caller set timeoutMs itself: it stays a hard kill time after promotion too. */
  keepTimeout?: boolean;
  /** Bounds of process handles (process.start, promoted commands). */
  handles: HandleLimits;
  /** The OS sandbox it runs in (shell.sandbox); absent when commands run with the owner's full rights. */
  sandbox?: SandboxPlan;
}

/** shell.exec without timeoutMs moves a command still running after this to a handle: well below ChatGPT's ~120 s per tunnel request. */
export const DEFAULT_PROMOTE_AFTER_MS = 60_000;

const op = 'shell.exec';

/**
 * When a shell.exec moves to a handle. Without timeoutMs: after promoteAfterMs (default 60 s),
 * and at the latest at shell.maxRuntimeMs, the longest a call waits; under the handle it then
 * lives like a process.start one. With timeoutMs alone: never, the command is killed at the
 * timeout. With both: after promoteAfterMs if that comes first, the timeout still ending it.
 */
function promotion(request: ShellRequest, timeoutMs: number): number | undefined {
  if (request.timeoutMs === undefined) return Math.min(request.promoteAfterMs ?? DEFAULT_PROMOTE_AFTER_MS, timeoutMs);
  return request.promoteAfterMs !== undefined && request.promoteAfterMs < timeoutMs ? request.promoteAfterMs : undefined;
}
const WINDOWS_EXTENSIONS = /\.(exe|com)$/i;

export class ShellPolicy {
  private readonly caseInsensitive: boolean;
  private readonly platform: NodeJS.Platform;

  constructor(
    private readonly config: Readonly<Pick<Config, 'shell' | 'desktop'>>,
    private readonly files: FilesystemPolicy,
    private readonly lookup: Pick<PolicyPort, 'findExecutable' | 'baseEnvironment' | 'platform'>,
    /** The caller-environment rules; built from the same config and port unless given. */
    readonly environment: EnvironmentPolicy = new EnvironmentPolicy(config, lookup),
    /** The OS sandbox every command runs in, when there is one. */
    private readonly sandbox?: SandboxPolicy,
  ) {
    this.platform = lookup.platform;
    this.caseInsensitive = this.platform === 'win32';
  }

  get allowsAnything(): boolean {
    return this.config.shell.allowedCommands.includes('*');
  }

  describeAllowed(): string {
    const list = this.config.shell.allowedCommands;
    return list.length ? list.join(', ') : 'none';
  }

  /**
   * `allowedBy`: a command the model names must be on shell.allowedCommands; a check the owner
   * configured (checks.projects, see checks.ts) is allowed by being there instead, and runs for
   * as long as checks.maxRuntimeMs lets it. Everything else is the same for both.
   */
  async plan(request: ShellRequest, allowedBy: 'allow-list' | 'owner-checks' = 'allow-list'): Promise<ShellPlan> {
    const { shell, desktop } = this.config;
    const listed = allowedBy === 'allow-list';
    if (listed && !shell.enabled) throw adapterError('CAPABILITY_DISABLED', op, 'command execution is disabled (shell.enabled is false)');
    const command = request.command.trim();
    if (!command || command.includes('\0') || request.args.some((a) => a.includes('\0'))) {
      throw adapterError('INVALID_INPUT', op, 'command and args must be non-empty text without NUL bytes');
    }

    // Capture programs are refused by name before any lookup, and again by the real path found.
    if (!desktop.hostDisplayAccess) await refuseCapture(command, null, request.args);
    const { found, real: file } = await this.resolveExecutable(command, listed);
    if (!desktop.hostDisplayAccess) await refuseCapture(command, file, request.args);

    const env = this.environment.child(request.env ?? {});
    const cwd = await this.workingDirectory(request.cwd);
    const timeoutMs = listed ? Math.min(request.timeoutMs ?? shell.maxRuntimeMs, shell.maxRuntimeMs) : (request.timeoutMs ?? shell.maxRuntimeMs);
    const promoteAfterMs = promotion(request, timeoutMs);
    const handles = { maxHandles: shell.maxProcesses, ringBytes: shell.maxOutputBytes, idleMs: shell.processIdleMs };
    const sandbox = await this.sandbox?.plan({ file, found, cwd });
    return {
      file,
      argv0: found,
      args: [...request.args],
      cwd,
      env,
      timeoutMs,
      maxOutputBytes: shell.maxOutputBytes,
      ...(promoteAfterMs !== undefined ? { promoteAfterMs } : {}),
      ...(promoteAfterMs !== undefined && request.timeoutMs !== undefined ? { keepTimeout: true } : {}),
      handles,
      ...(sandbox ? { sandbox } : {}),
    };
  }

  /** Checks the name against the list, finds it on the server's PATH, and checks where it really lives. */
  private async resolveExecutable(command: string, listed: boolean): Promise<{ found: string; real: string }> {
    const pathApi = this.platform === 'win32' ? nodePath.win32 : nodePath.posix;
    const isPath = command.includes('/') || (this.platform === 'win32' && command.includes('\\'));
    if (isPath && !pathApi.isAbsolute(command)) {
      throw adapterError(
        'COMMAND_NOT_ALLOWED',
        op,
        `${command}: give a command name or an absolute path, not a relative path. Allowed commands: ${this.describeAllowed()}`,
      );
    }
    const name = isPath ? pathApi.basename(command) : command;
    const listedExactly = this.listed(command);
    if (listed && !this.allowsAnything && !listedExactly && !this.listed(name)) throw this.notAllowed(command);

    const searchPath = this.environment.searchPath;
    const found = await this.lookup.findExecutable(command, searchPath);
    if (!found) throw adapterError('NOT_FOUND', op, `${command} was not found${isPath ? '' : ' on the PATH'}`);
    if (listed && isPath && !listedExactly && !this.allowsAnything) {
      // An absolute path is allowed through its name only when it is the program that name runs.
      const viaName = await this.lookup.findExecutable(name, searchPath);
      if (!viaName || viaName.real !== found.real) throw this.notAllowed(command);
    }
    // Where it was found (a tool could put another file there), each link on the way (a tool
    // could point it elsewhere) and where it really is; even under "*", so a planted script
    // cannot slip past the display gate's denylist unread.
    const links = found.links ?? [];
    for (const [i, candidate] of [pathApi.dirname(found.found), ...links.map((link) => pathApi.dirname(link)), found.real].entries()) {
      if (await this.writable(candidate)) {
        const where = i === 0 ? `resolves to ${found.found}` : `runs ${found.real} through ${links[i - 1] ?? found.real}`;
        throw adapterError(
          'COMMAND_NOT_ALLOWED',
          op,
          `${command} ${where}, inside a writable root; programs that tools can write or point elsewhere are never run. Allowed commands: ${this.describeAllowed()}`,
        );
      }
    }
    return found;
  }

  /** Whether a tool could write this path: the filesystem policy grants write access to it. */
  private async writable(path: string): Promise<boolean> {
    // Nothing is writable with writing off; skips a refusal (an Error and its stack) per check.
    if (!this.files.writesAllowed) return false;
    return this.files.resolve(path, 'write', op).then(
      () => true,
      () => false,
    );
  }

  private listed(command: string): boolean {
    const fold = (s: string) => (this.caseInsensitive ? s.toLowerCase().replace(WINDOWS_EXTENSIONS, '') : s);
    const wanted = fold(command);
    return this.config.shell.allowedCommands.some((entry) => fold(entry) === wanted);
  }

  private notAllowed(command: string): Error {
    return adapterError('COMMAND_NOT_ALLOWED', op, `${command} is not in the allowed commands (${this.describeAllowed()})`);
  }

  private async workingDirectory(cwd: string | undefined): Promise<string | undefined> {
    if (cwd === undefined) {
      // The first root when there is one (relative paths mean the same everywhere), else the server's own.
      return this.files.resolve('.', 'read', op).then(
        (root) => root.path,
        () => undefined,
      );
    }
    const resolved = await this.files.resolve(cwd, 'read', op);
    if (!resolved.exists) throw adapterError('NOT_FOUND', op, `cwd ${cwd} does not exist`);
    return resolved.path;
  }
}

/**
 * The capture denylist loads, and runs its own examples, with the first command planned while
 * display access is off: a server that runs no command does not pay the ~10 ms at start.
 */
let captureGate: Promise<{ captureDenial: typeof CaptureDenial }> | undefined;

async function refuseCapture(command: string, realPath: string | null, args: readonly string[]): Promise<void> {
  const { captureDenial } = await (captureGate ??= import('./capture-gate.js'));
  const denial = captureDenial(command, realPath, args);
  if (denial) throw adapterError('COMMAND_NOT_ALLOWED', op, `${denial}; screen and input access is off (desktop.hostDisplayAccess is false)`);
}
