/**
 * The config file as the settings window needs it: the raw JSON object to edit (even when it
 * is invalid, so the owner can fix it in place) and the schema issues by key path. Also turns a
 * failed server start into a message plus the field to open the window at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { withoutByteOrderMark } from '../config/byte-order-mark.js';
import { defaultConfigPath } from '../config/app-dir.js';
import { ConfigError } from '../config/load.js';
import { validateConfig, type ConfigIssue } from '../config/save.js';
import { ListenError, type ListenFailure } from '../mcp/http.js';
import { SandboxUnavailableError } from '../policy/sandbox.js';
import type { KeyPath } from './bridge-api.js';
import { OwnedStateError } from '../config/owned-state.js';
import { TokenFileError } from '../config/token.js';

export interface EditableConfig {
  exists: boolean;
  config: Record<string, unknown> | null;
  fileError: string | null;
  issues: ConfigIssue[];
}

/** The file the server reads and the window writes: CHATGPT_MCP_CONFIG, else the per-OS default (as loadConfig). */
export function resolveConfigPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  return env.CHATGPT_MCP_CONFIG ? path.resolve(env.CHATGPT_MCP_CONFIG) : defaultConfigPath(platform, env, home);
}

export function readConfigForEditing(file: string): EditableConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false, config: {}, fileError: null, issues: [] };
    return { exists: true, config: null, fileError: `Cannot read ${file}: ${code ?? 'unknown error'}`, issues: [] };
  }
  let value: unknown;
  try {
    // The same text the server parses (load.ts), so the window never calls a working file broken.
    value = JSON.parse(withoutByteOrderMark(text));
  } catch (error) {
    return { exists: true, config: null, fileError: `${file} is not valid JSON (${(error as Error).message})`, issues: [] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { exists: true, config: null, fileError: `${file} must hold a JSON object at the top level`, issues: [] };
  }
  const checked = validateConfig(value);
  return { exists: true, config: value as Record<string, unknown>, fileError: null, issues: checked.ok ? [] : checked.issues };
}

/**
 * The process grants the saved file holds now (the tray's process panel honours a switch turned
 * off before the server restarts); null when the file is unreadable or invalid, which counts as off.
 */
export function savedProcessGrants(file: string): { list: boolean; kill: boolean } | null {
  const editable = readConfigForEditing(file);
  if (!editable.config) return null;
  const checked = validateConfig(editable.config);
  return checked.ok ? { list: checked.config.process.list, kill: checked.config.process.kill } : null;
}

/** Environment variables that override the file in the running server (names only). */
export const OVERRIDE_VARIABLES = ['CHATGPT_MCP_CONFIG', 'CHATGPT_MCP_HOST', 'CHATGPT_MCP_PORT', 'CHATGPT_MCP_TOKEN', 'CHATGPT_MCP_LOG_LEVEL'] as const;

export function activeOverrides(env: NodeJS.ProcessEnv): string[] {
  return OVERRIDE_VARIABLES.filter((name) => Boolean(env[name]));
}

const LISTEN_FIELD: Record<ListenFailure, KeyPath> = {
  'not-loopback': ['server', 'host'],
  'no-address': ['server', 'host'],
  'open-beyond-loopback': ['server', 'auth'],
  'open-tunnel': ['server', 'auth'],
  'no-public-url': ['server', 'publicUrl'],
  'oauth-state': ['server', 'auth'],
  'no-token': ['server', 'token'],
  'in-use': ['server', 'port'],
  permission: ['server', 'port'],
  other: ['server', 'port'],
};

/**
 * A start failure for the tray: the loader's or listener's own message, and the config field
 * to show (the first schema issue in the file, or the host/port a listen failure names).
 */
export function explainStartFailure(error: unknown, file: string): { message: string; field: KeyPath | null } {
  if (error instanceof ListenError) {
    return { message: error.message, field: LISTEN_FIELD[error.reason] };
  }
  if (error instanceof SandboxUnavailableError) return { message: error.message, field: [...error.key] };
  // The app's own state (its folder, the token file) is not the owner's alone: the message says what to do.
  if (error instanceof OwnedStateError || error instanceof TokenFileError) return { message: error.message, field: null };
  if (error instanceof ConfigError) {
    const first = readConfigForEditing(file).issues[0];
    return { message: error.message, field: first ? first.path : null };
  }
  return { message: `Unexpected failure: ${error instanceof Error ? error.name : typeof error}`, field: null };
}
