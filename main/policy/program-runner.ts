/**
 * The one decision about programs the server runs for a tool. There are two kinds, and every
 * tool that runs a program is one of them:
 *
 * - a command: the model names it (shell.exec, process.start). It must be on
 *   shell.allowedCommands; the shell policy plans it: the real executable, the caller's allowed
 *   environment on top of the short base, the display gate, and the command sandbox when
 *   shell.sandbox has one.
 * - a helper: the tool names it (ripgrep for fs.search; git for the git tools). It is never on
 *   the allow-list and never named by the model; it is found on the server's PATH, never inside
 *   a root (where a tool or a command could have put a program of that name), and runs with an
 *   environment built from nothing but what its declaration lists. A helper that runs code the
 *   files it works on can name (git: hooks, filters, `core.fsmonitor`) is `runsFileCode` and
 *   runs inside the command sandbox when there is one; one that only reads (ripgrep, whose
 *   answer the tool checks again) runs as the server.
 *
 * So a new tool that runs a program never spawns it itself: it asks here for a plan and hands
 * the plan to the adapter.
 */
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { SandboxPlan } from '../../adapter/contract/sandbox.js';
import type { FilesystemPolicy } from './filesystem.js';
import type { SandboxPolicy } from './sandbox.js';
import type { ShellPlan, ShellPolicy, ShellRequest } from './shell.js';

export interface HelperSpec {
  /** The program's name on the PATH. */
  name: string;
  /** It runs code that the files it works on can name: it goes inside the command sandbox. */
  runsFileCode: boolean;
  /** Names taken from the server's base environment (PATH so git finds its parts, HOME for the owner's global config). */
  fromBase?: readonly string[];
  /** Fixed values, set last. */
  env?: Readonly<Record<string, string>>;
  /** Its grant is reaching the network (git_push to an allowed remote): inside the sandbox it has it, whatever shell.network says. */
  network?: boolean;
}

/** A helper run, ready for the adapter: nothing in it comes from the model but the arguments its tool adds. */
export interface HelperPlan {
  file: string;
  env: Record<string, string>;
  /** Present for a `runsFileCode` helper while commands are sandboxed. */
  sandbox?: SandboxPlan;
}

export const RIPGREP: HelperSpec = Object.freeze({ name: 'rg', runsFileCode: false });

export class ProgramRunner {
  private readonly found = new Map<string, Promise<string | null>>();

  constructor(
    private readonly shell: ShellPolicy,
    private readonly files: FilesystemPolicy,
    private readonly port: Pick<PolicyPort, 'findExecutable' | 'baseEnvironment'>,
    private readonly sandbox?: SandboxPolicy,
    /** Helpers may be used (tests turn ripgrep off to exercise the built-in search). */
    private readonly useHelpers: (spec: HelperSpec) => boolean = () => true,
  ) {}

  /** A program the model named: the allow-list, the environment rules, the sandbox. */
  command(request: ShellRequest): Promise<ShellPlan> {
    return this.shell.plan(request);
  }

  /**
   * A check the owner configured for a project (verify_changes): planned like a command (the
   * environment, the display gate, a program never taken from a writable root, the sandbox), but
   * allowed by the owner's checks.projects instead of shell.allowedCommands.
   */
  check(request: ShellRequest): Promise<ShellPlan> {
    return this.shell.plan(request, 'owner-checks');
  }

  /** A helper the tool needs, or null when the machine has none usable (the tool does without, or says so). */
  async helper(spec: HelperSpec, cwd?: string): Promise<HelperPlan | null> {
    if (!this.useHelpers(spec)) return null;
    let lookup = this.found.get(spec.name);
    if (!lookup) this.found.set(spec.name, (lookup = this.locate(spec.name)));
    const file = await lookup;
    if (!file) return null;
    const sandbox = spec.runsFileCode ? await this.sandbox?.plan({ file, found: file, cwd }, spec.network ? { network: 'on' } : {}) : undefined;
    return { file, env: this.environment(spec), ...(sandbox ? { sandbox } : {}) };
  }

  private environment(spec: HelperSpec): Record<string, string> {
    const base = this.port.baseEnvironment();
    const env: Record<string, string> = {};
    for (const name of spec.fromBase ?? []) if (base[name] !== undefined) env[name] = base[name];
    return { ...env, ...spec.env };
  }

  /** Found on the server's PATH once; refused when it, or where it was found, lies inside any root. */
  private async locate(name: string): Promise<string | null> {
    const env = this.port.baseEnvironment();
    const found = await this.port.findExecutable(name, env.PATH ?? env.Path).catch(() => null);
    if (!found) return null;
    const planted = await Promise.all([found.found, found.real].map((candidate) => this.files.insideAnyRoot(candidate)));
    return planted.some(Boolean) ? null : found.real;
  }
}
