/**
 * Loads the effective configuration once: defaults < file < environment < CLI flags, parsed
 * with the one schema and deep-frozen. Anything unreadable or invalid fails closed with a
 * single message naming the source, the key path and what was expected.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import os from 'node:os';
import { withoutByteOrderMark } from './byte-order-mark.js';
import type * as z from 'zod';
import { configSchema, LOG_LEVELS, type Config } from './schema.js';
import { defaultConfigPath } from './app-dir.js';
import { deepFreeze } from './deep-freeze.js';
import { editDistance } from './edit-distance.js';

export interface CliOverrides {
  config?: string;
  host?: string;
  port?: string;
  logLevel?: string;
}

export interface LoadOptions {
  cli?: CliOverrides;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
  /** The whole settings, given by the host that started the server (the Claude Desktop bundle): no file is read. */
  settings?: Record<string, unknown>;
}

export interface LoadedConfig {
  config: Readonly<Config>;
  /** The file that was read, or null when the default file did not exist. */
  file: string | null;
  /** The path that was looked at (explicit or default). */
  path: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Raw = Record<string, unknown>;

/** Where an overridden key came from, so an error can name the env var or flag. */
type Origins = Map<string, string>;

export function loadConfig(options: LoadOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const cli = options.cli ?? {};
  const explicit = Boolean(cli.config ?? env.CHATGPT_MCP_CONFIG);
  const path = configPathFor(options);

  const fromFile = options.settings ? null : readConfigFile(path, explicit);
  const raw: Raw = options.settings ? structuredClone(options.settings) : (fromFile ?? {});
  const origins: Origins = new Map();
  const label = options.settings ? 'the settings the host passed' : fromFile ? path : 'defaults';

  override(raw, origins, ['server', 'host'], env.CHATGPT_MCP_HOST, 'CHATGPT_MCP_HOST');
  override(raw, origins, ['server', 'port'], portValue(env.CHATGPT_MCP_PORT), 'CHATGPT_MCP_PORT');
  override(raw, origins, ['server', 'token'], env.CHATGPT_MCP_TOKEN, 'CHATGPT_MCP_TOKEN');
  override(raw, origins, ['server', 'logLevel'], env.CHATGPT_MCP_LOG_LEVEL, 'CHATGPT_MCP_LOG_LEVEL');
  override(raw, origins, ['server', 'host'], cli.host, '--host');
  override(raw, origins, ['server', 'port'], portValue(cli.port), '--port');
  override(raw, origins, ['server', 'logLevel'], cli.logLevel, '--log-level');

  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(describeIssues(label, result.error, origins, raw));
  return { config: deepFreeze(result.data), file: fromFile ? path : null, path };
}

/** The config file in use: --config, else CHATGPT_MCP_CONFIG, else the per-OS default. */
export function configPathFor(options: LoadOptions = {}): string {
  const env = options.env ?? process.env;
  const explicit = options.cli?.config ?? env.CHATGPT_MCP_CONFIG;
  // Absolute, so the file is protected from the tools whatever the working directory.
  return explicit ? nodePath.resolve(explicit) : defaultConfigPath(options.platform ?? process.platform, env, options.home ?? os.homedir());
}

/** The config file as written, no environment variable or flag applied (what a command that edits the file starts from); {} when there is none yet. */
export function readRawConfig(path: string): Raw {
  return readConfigFile(path, false) ?? {};
}

function readConfigFile(path: string, explicit: boolean): Raw | null {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) return null;
    if (code === 'ENOENT') throw new ConfigError(`Config file not found: ${path}`);
    throw new ConfigError(`Cannot read config file ${path}: ${READ_FAILURES[code ?? ''] ?? code ?? (error as Error).message}`);
  }
  return parseJson(text, path);
}

/** Why a config file could not be read, in words, with what to do. */
const READ_FAILURES: Record<string, string> = {
  EACCES: 'permission denied (EACCES): this user may not read it; check its owner and mode (ls -l), or point --config at a file of yours',
  EPERM: 'permission denied (EPERM): this user may not read it; check its owner and mode (ls -l), or point --config at a file of yours',
  EISDIR: 'it is a folder, not a file (EISDIR): --config and CHATGPT_MCP_CONFIG name the JSON file itself, like .../chatgpt-mcp/config.json',
  ENOTDIR: 'a part of the path is a file, not a folder (ENOTDIR)',
  ELOOP: 'too many symbolic links on the way (ELOOP)',
};

function parseJson(raw: string, label: string): Raw {
  const text = withoutByteOrderMark(raw);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Invalid configuration in ${label}: not valid JSON ${jsonErrorPlace(text, (error as Error).message)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`Invalid configuration in ${label}: expected a JSON object at the top level`);
  }
  return value as Raw;
}

/** Env and flag values are strings; a port must become a number, or stay a bad string to be reported. */
function portValue(value: string | undefined): unknown {
  if (value === undefined || value === '') return undefined;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function override(raw: Raw, origins: Origins, keys: [string, string], value: unknown, source: string): void {
  if (value === undefined || value === '') return;
  const [section, key] = keys;
  const current = raw[section];
  const target: Raw = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Raw) } : {};
  target[key] = value;
  raw[section] = target;
  origins.set(`${section}.${key}`, source);
}

function describeIssues(label: string, error: z.ZodError, origins: Origins, raw: Raw): string {
  const lines = error.issues.slice(0, 10).map((issue) => {
    const key = formatPath(issue.path);
    const source = origins.get(key);
    return `  ${key || '(top level)'}${source ? ` (from ${source})` : ''}: ${describeIssue(issue, valueAt(raw, issue.path))}`;
  });
  const more = error.issues.length > 10 ? [`  ...and ${error.issues.length - 10} more`] : [];
  return [`Invalid configuration in ${label}:`, ...lines, ...more].join('\n');
}

/** "at line 3, column 8: Unexpected number" from V8's "... at position 42". */
function jsonErrorPlace(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
  if (!position) return `(${reason})`;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `at line ${line}, column ${column}: ${reason}`;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => unknownKey(key, issue.path)).join('; ');
  if (issue.code === 'invalid_type' && typeof value === 'string') {
    // JSON's quotes make a number, a switch or a list a string: say how to write it instead.
    const key = String(issue.path.at(-1) ?? 'value');
    if (issue.expected === 'number' && /^\s*-?\d+(\.\d+)?\s*$/.test(value))
      return `${issue.message}, got the string "${value}": write the number without quotes, "${key}": ${value.trim()}`;
    if (issue.expected === 'boolean' && /^(true|false)$/i.test(value.trim()))
      return `expected true or false without quotes, "${key}": ${value.trim().toLowerCase()}`;
    if (issue.expected === 'array')
      return `expected a list in [ ], got one string: write "${key}": [${JSON.stringify(value)}] (more entries separated by commas)`;
  }
  if (issue.code === 'invalid_value' && issue.path.at(-1) === 'logLevel') return `expected one of ${LOG_LEVELS.join(', ')}`;
  if (issue.code === 'invalid_key') return `invalid name: ${issue.issues[0]?.message ?? issue.message}`;
  return issue.message;
}

/** `unknown key "allowedCommand" (did you mean "allowedCommands"?)`, from the keys valid at that place. */
function unknownKey(key: string, at: PropertyKey[]): string {
  const known = keysAt(at);
  const lower = key.toLowerCase();
  // A shortened name ("hostDisplay") counts as close; otherwise a few edits at most.
  const distance = (candidate: string) => (key.length >= 3 && candidate.toLowerCase().startsWith(lower) ? 0.5 : editDistance(lower, candidate.toLowerCase()));
  const nearest = known.map((candidate) => ({ candidate, distance: distance(candidate) })).sort((a, b) => a.distance - b.distance)[0];
  const close = nearest && nearest.distance <= Math.max(2, Math.floor(key.length / 3));
  return `unknown key "${key}"${close ? ` (did you mean "${nearest.candidate}"?)` : known.length ? ` (valid here: ${known.join(', ')})` : ''}`;
}

/** The keys the schema accepts at a path of nested objects (sections), or [] when unknown. */
function keysAt(at: PropertyKey[]): string[] {
  let schema: unknown = configSchema;
  for (const key of at) {
    const shape = objectShape(schema);
    schema = shape?.[String(key)];
    if (schema === undefined) return [];
  }
  return Object.keys(objectShape(schema) ?? {}).filter((k) => k !== '$schema');
}

function objectShape(schema: unknown): Record<string, unknown> | undefined {
  // Through .default(), .optional() and refinements to the strict object underneath.
  let current = schema as { shape?: Record<string, unknown>; def?: { innerType?: unknown; in?: unknown; schema?: unknown } } | undefined;
  for (let i = 0; i < 5 && current && !current.shape; i++) current = (current.def?.innerType ?? current.def?.in ?? current.def?.schema) as typeof current;
  return current?.shape;
}

function valueAt(raw: Raw, path: readonly PropertyKey[]): unknown {
  let value: unknown = raw;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}
