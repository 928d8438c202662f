/**
 * Writes the config file the way the settings window needs it: validated with the one schema
 * first (nothing is written while anything is invalid), then atomically with mode 0600
 * (atomic-file.ts) because the file can hold the bearer token.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { configSchema, type Config } from './schema.js';
import { ConfigError } from './load.js';
import { deepFreeze } from './deep-freeze.js';

export interface ConfigIssue {
  /** Key path inside the config, e.g. ['server', 'port'] or ['filesystem', 'roots', 0, 'path']. */
  path: (string | number)[];
  message: string;
}

export type ValidationResult = { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] };

export class ConfigValidationError extends ConfigError {
  override name = 'ConfigValidationError';
  constructor(readonly issues: ConfigIssue[]) {
    super(`Invalid configuration, nothing was written:\n${issues.map((i) => `  ${i.path.join('.') || '(top level)'}: ${i.message}`).join('\n')}`);
  }
}

export function validateConfig(value: unknown): ValidationResult {
  const result = configSchema.safeParse(value);
  if (result.success) return { ok: true, config: result.data };
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
    message: issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message,
  }));
  return { ok: false, issues };
}

/**
 * Validates `value` and writes the parsed config (defaults filled in, so the file shows every
 * setting in effect) to `file`. Throws ConfigValidationError without touching the disk when
 * the value is invalid.
 */
export async function saveConfig(file: string, value: unknown): Promise<Readonly<Config>> {
  const checked = validateConfig(value);
  if (!checked.ok) throw new ConfigValidationError(checked.issues);

  const text = JSON.stringify(checked.config, null, 2) + '\n';
  const target = await resolveTarget(file);
  await refuseReadOnly(target);
  await writeFileAtomic(target, text);
  return deepFreeze(checked.config);
}

/**
 * A symlinked config file (dotfile managers) is replaced at its target, keeping the link; a link
 * whose target does not exist yet makes that target (not a file in the link's place).
 */
async function resolveTarget(file: string): Promise<string> {
  const absolute = path.resolve(file);
  try {
    return await fs.realpath(absolute);
  } catch {
    const link = await fs.readlink(absolute).catch(() => null);
    return link === null ? absolute : path.resolve(path.dirname(absolute), link);
  }
}

/**
 * An owner who took the write bit off the file meant it to stay as it is: the atomic replace
 * (a new file renamed over it) would not ask, and root is never refused, so the mode is read here.
 */
async function refuseReadOnly(target: string): Promise<void> {
  const stat = await fs.stat(target).catch(() => null);
  if (stat === null || (stat.mode & 0o200) !== 0) return;
  const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
  throw new ConfigReadOnlyError(`${target} is read-only (mode ${mode}): nothing was written; make it writable (chmod u+w) to change settings`);
}

/** The config file's write bit is off: the owner's choice, kept (`code` as the OS would say it). */
export class ConfigReadOnlyError extends ConfigError {
  override name = 'ConfigReadOnlyError';
  readonly code = 'EACCES';
}
