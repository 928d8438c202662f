/**
 * The environment of the programs shell.exec runs (and, later, process.start), built once per
 * config. A child gets the port's short base environment (never the server's whole one), minus
 * the graphical session while `desktop.hostDisplayAccess` is off, plus what the caller asked for,
 * and a caller may set only names on an allow-list:
 *
 * - the built-in harmless names (env-names.ts: locale, TZ, TERM, colours, sizes...), each with
 *   the value shape it must have;
 * - the names the owner listed in `shell.allowedEnv` (validated at config load: none of them can
 *   name a program, a library or a search path);
 * - PATH, with `shell.allowPathEnv` (programs are still looked up on the server's PATH).
 *
 * Everything else is refused with a message listing what is allowed. A deny-list of dangerous
 * names would always miss one (`BROWSER` made an allowed xdg-open run a shell; `XDG_DATA_DIRS`
 * pointing into a root ran a planted .desktop entry).
 */
import { adapterError } from '../../adapter/contract/errors.js';
import type { PolicyPort } from '../../adapter/contract/policy-port.js';
import type { Config } from '../config/schema.js';
import { isDisplayEnvKey, scrubDisplayEnv } from './display-env.js';
import { BUILT_IN_ENV_NAMES, builtInEnvRule, codeRunningReason, ENV_NAME } from './env-names.js';

const op = 'shell.exec';

export class EnvironmentPolicy {
  private readonly base: Readonly<Record<string, string>>;
  private readonly caseInsensitive: boolean;
  private readonly ownerNames: ReadonlySet<string>;

  constructor(
    private readonly config: Readonly<Pick<Config, 'shell' | 'desktop'>>,
    port: Pick<PolicyPort, 'baseEnvironment' | 'platform'>,
  ) {
    this.caseInsensitive = port.platform === 'win32';
    const base = port.baseEnvironment();
    this.base = config.desktop.hostDisplayAccess ? base : scrubDisplayEnv(base);
    this.ownerNames = new Set(config.shell.allowedEnv.map((name) => this.fold(name)));
  }

  /** The base environment's search path, where commands are looked up. */
  get searchPath(): string | undefined {
    return this.base.PATH ?? this.base.Path;
  }

  /** What a caller may set, for denials and system.info. */
  describeAllowed(): string {
    const { shell } = this.config;
    if (!shell.allowEnv) return 'none (shell.allowEnv is false)';
    const owner = shell.allowedEnv.length ? shell.allowedEnv.join(', ') : 'none';
    return `${BUILT_IN_ENV_NAMES.join(', ')}${shell.allowPathEnv ? ', PATH' : ''}; added by the owner (shell.allowedEnv): ${owner}`;
  }

  /** The complete environment for a child, with the caller's additions once each is allowed. */
  child(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
    const keys = Object.keys(extra);
    if (keys.length > 0 && !this.config.shell.allowEnv) {
      throw adapterError('CAPABILITY_DISABLED', op, 'environment additions are disabled (shell.allowEnv is false); call again without env');
    }
    const display = keys.filter(isDisplayEnvKey);
    if (display.length > 0 && !this.config.desktop.hostDisplayAccess) {
      throw adapterError(
        'COMMAND_NOT_ALLOWED',
        op,
        `${display.join(', ')} would give the command the screen; screen and input access is off (desktop.hostDisplayAccess is false)`,
      );
    }
    for (const key of keys) {
      const problem = this.problem(key, extra[key]!);
      if (problem) throw adapterError('COMMAND_NOT_ALLOWED', op, `${problem}. Allowed names: ${this.describeAllowed()}`);
    }
    const env = { ...this.base };
    for (const [key, value] of Object.entries(extra)) {
      // Windows names are case-insensitive: replace any spelling of the same name.
      if (this.caseInsensitive) for (const existing of Object.keys(env)) if (existing.toUpperCase() === key.toUpperCase()) delete env[existing];
      env[key] = value;
    }
    return env;
  }

  private problem(key: string, value: string): string | null {
    if (!ENV_NAME.test(key)) return `env name ${JSON.stringify(key)} is not a plain variable name (letters, digits, _)`;
    if (value.includes('\0')) return `env ${key} contains a NUL byte`;
    const upper = key.toUpperCase();
    if (upper === 'PATH') return this.config.shell.allowPathEnv ? null : 'env PATH may not be changed (shell.allowPathEnv is false)';
    const builtIn = builtInEnvRule(key);
    if (builtIn) return builtIn.value.test(value) ? null : `env ${key} must be ${builtIn.expected}`;
    // Listed by the owner, and passed the config check (re-checked: a hand-built config skips the schema).
    if (this.ownerNames.has(this.fold(key)) && codeRunningReason(key, { allowPathEnv: false }) === null) return null;
    return `env ${key} is not on the allow-list`;
  }

  private fold(name: string): string {
    return this.caseInsensitive ? name.toUpperCase() : name;
  }
}
