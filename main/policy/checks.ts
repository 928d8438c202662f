/**
 * The project checks verify_changes runs: which project a path belongs to (the deepest one in
 * checks.projects holding it, through the filesystem policy), which of its checks run at a
 * level, and each check's plan. A check is a command (the program runner's command kind: the
 * environment, the display gate, the sandbox, a program never taken from a writable root), but
 * allowed because the owner configured it for that project, not by shell.allowedCommands. So a
 * model cannot name a program here, only a check the owner named; what the check runs can still
 * be code the project's files hold (a package.json script), which is why checks run in the
 * command sandbox when there is one (docs/GIT.md).
 */
import type { Config, CheckLevel } from '../config/schema.js';
import { adapterError } from '../../adapter/contract/errors.js';
import type { FilesystemPolicy } from './filesystem.js';
import type { ProgramRunner } from './program-runner.js';
import type { ShellPlan } from './shell.js';
import { commandOf, describeChecks, levelOf, runsAt } from './check-detect.js';

export interface ProjectCheck {
  name: string;
  command: string[];
  level: CheckLevel;
}

export interface CheckProject {
  /** The project's real folder, where its checks run. */
  path: string;
  checks: ProjectCheck[];
}

export class ChecksPolicy {
  constructor(
    private readonly config: Readonly<Pick<Config, 'checks'>>,
    private readonly files: FilesystemPolicy,
    private readonly programs: ProgramRunner,
  ) {}

  /** The configured project holding `path` (the deepest); refused, with the configured ones named, when none does. */
  async project(path: string, op: string): Promise<CheckProject> {
    const wanted = await this.files.resolve(path, 'read', op);
    let best: CheckProject | null = null;
    for (const project of this.config.checks.projects) {
      const real = await this.files.resolve(project.path, 'read', op).catch(() => null);
      if (!real || !(wanted.path === real.path || wanted.path.startsWith(`${real.path}/`))) continue;
      if (best && best.path.length >= real.path.length) continue;
      best = {
        path: real.path,
        checks: Object.entries(project.checks).map(([name, entry]) => ({ name, command: commandOf(entry), level: levelOf(name, entry) })),
      };
    }
    if (!best) {
      const configured = this.config.checks.projects.map((p) => p.path).join(', ') || 'none';
      throw adapterError(
        'NOT_FOUND',
        op,
        `no checks are configured for a project holding ${path} (projects with checks: ${configured}); the owner adds a project's checks in the settings (Git) or checks.projects, where the ones its files suggest are shown first`,
      );
    }
    return best;
  }

  /** The checks to run at `level`, or exactly the named ones. */
  select(project: CheckProject, level: CheckLevel, names: readonly string[] | undefined, op: string): { run: ProjectCheck[]; skipped: string[] } {
    if (names && names.length > 0) {
      const unknown = names.filter((n) => !project.checks.some((c) => c.name === n));
      if (unknown.length)
        throw adapterError(
          'INVALID_INPUT',
          op,
          `${unknown.join(', ')}: not a check of ${project.path} (its checks: ${describeChecks(Object.fromEntries(project.checks.map((c) => [c.name, c])))})`,
        );
      return { run: project.checks.filter((c) => names.includes(c.name)), skipped: project.checks.filter((c) => !names.includes(c.name)).map((c) => c.name) };
    }
    return { run: project.checks.filter((c) => runsAt(c.level, level)), skipped: project.checks.filter((c) => !runsAt(c.level, level)).map((c) => c.name) };
  }

  /** The check's run: in the project's folder, for up to checks.maxRuntimeMs, with CI set so tools do not wait for a person. */
  async plan(project: CheckProject, check: ProjectCheck): Promise<ShellPlan> {
    const [command, ...args] = check.command;
    const plan = await this.programs.check({ command: command!, args, cwd: project.path, timeoutMs: this.config.checks.maxRuntimeMs });
    return { ...plan, env: { ...plan.env, CI: 'true' } };
  }
}
