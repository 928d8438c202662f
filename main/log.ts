/**
 * Diagnostics as JSON lines on stderr, never stdout (stdout is the stdio protocol channel).
 * Callers pass only non-secret metadata; this module never receives file contents, command
 * output, environment values, tokens or request bodies.
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
