/**
 * Diagnostics as JSON lines on stderr, never stdout (stdout is the stdio protocol channel).
 * Callers pass only non-secret metadata; this module never receives file contents, command
 * output, environment values, tokens or request bodies. Belt and braces: a logger made with
 * `scrubbingLogger` replaces the secrets in use (the bearer token) wherever they appear in a
 * message or in any field, e.g. in a path a caller chose to name after the token.
 */
import type { LogLevel } from './config/schema.js';

const rank: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  enabled(level: LogLevel): boolean;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const threshold = rank[level];
  const emit = (at: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: LogFields) => {
    if (rank[at] > threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }) + '\n');
  };
  return {
    error: emit('error'),
    warn: emit('warn'),
    info: emit('info'),
    debug: emit('debug'),
    enabled: (at) => at !== 'silent' && rank[at] <= threshold,
  };
}

export const silentLogger: Logger = createLogger('silent', () => {});

export const REDACTED_SECRET = '<redacted>';

/** A logger that writes through `inner` with every secret (and its URL-encoded form) replaced. */
export function scrubbingLogger(inner: Logger, secrets: readonly string[]): Logger {
  const forms = [...new Set(secrets.filter(Boolean).flatMap((secret) => [secret, encodeURIComponent(secret)]))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return inner;
  const text = (value: string) => forms.reduce((out, secret) => out.split(secret).join(REDACTED_SECRET), value);
  const scrub = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (depth > 8 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [text(key), scrub(item, depth + 1)]));
  };
  const wrap = (at: 'error' | 'warn' | 'info' | 'debug') => (msg: string, fields?: LogFields) => {
    if (inner.enabled(at)) inner[at](text(msg), fields === undefined ? undefined : (scrub(fields, 0) as LogFields));
  };
  return { error: wrap('error'), warn: wrap('warn'), info: wrap('info'), debug: wrap('debug'), enabled: (level) => inner.enabled(level) };
}
