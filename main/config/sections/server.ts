/** server.*: where and how the MCP endpoint listens, and what it accepts. */
import * as z from 'zod';
import { byteSize, MiB, text } from './fields.js';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const AUTH_MODES = ['bearer', 'oauth', 'bearer+oauth', 'none'] as const;

export type AuthMode = (typeof AUTH_MODES)[number];

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3210;
export const MIN_TOKEN_LENGTH = 16;
/** About what coding agents give one tool output; a tenth of a small model's context. */
export const DEFAULT_ANSWER_BUDGET = 8000;
export const MIN_ANSWER_BUDGET = 1000;
export const MAX_ANSWER_BUDGET = 1_000_000;
const ANSWER_BUDGET_RANGE = `expected a number of tokens from ${MIN_ANSWER_BUDGET} to ${MAX_ANSWER_BUDGET}, or 0 for no budget`;

/** Loopback names, as in main/mcp/http-guards.ts (this module must stay free of Node imports). */
function isLoopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The public URL a tunnel serves this server at: an https origin (http only for loopback),
 * with no path, query, fragment or credentials. OAuth's issuer and resource derive from it.
 */
export function publicUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'expected a URL like https://example.trycloudflare.com';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackName(url.hostname))) return 'must start with https:// (http:// only for localhost)';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || /[?#]/.test(value)) {
    return 'must be the origin only (like https://example.trycloudflare.com), without a path such as /mcp';
  }
  return null;
}

export const serverSchema = z.strictObject({
  host: text.default(DEFAULT_HOST),
  port: z.number({ error: 'expected a port number from 0 to 65535' }).int().min(0).max(65535).default(DEFAULT_PORT),
  token: z
    .string()
    .min(MIN_TOKEN_LENGTH, `must be at least ${MIN_TOKEN_LENGTH} characters`)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  /**
   * Which credentials /mcp accepts. "bearer" (the default): a token from server.token, or the
   * token file the server creates on first start. "none" is an explicit choice, loopback only.
   */
  auth: z.enum(AUTH_MODES).default('bearer'),
  /** Binding to anything but loopback needs this AND a token. */
  allowNonLoopback: z.boolean().default(false),
  /** Extra Host header names accepted (tunnels that forward the public Host). */
  allowedHosts: z.array(text).default([]),
  /**
   * The tunnel's public https URL (origin only), or "" for none. With OAuth it names the issuer
   * and the resource (<publicUrl>/mcp); its host is accepted like an allowedHosts entry.
   */
  publicUrl: z
    .string()
    .refine((s) => s === '' || publicUrlProblem(s) === null, { error: (issue) => publicUrlProblem(String(issue.input)) ?? 'invalid URL' })
    .default(''),
  /** Extra browser origins accepted, as full origins like `https://example.com`. */
  allowedOrigins: z.array(text).default([]),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /**
   * "underscore" (the default) exposes fs_read for the contract's fs.read: the OpenAI API, its
   * Agents SDKs and Claude Desktop reject tool names outside ^[a-zA-Z0-9_-]{1,64}$. "dotted"
   * exposes the contract's names as they are.
   */
  toolNames: z.enum(['dotted', 'underscore']).default('underscore'),
  maxRequestBytes: byteSize(256 * MiB).default(8 * MiB),
  /** Every tool whose annotations say it changes something is hidden and refused (the tray's "Pause writes"). */
  readOnly: z.boolean().default(false),
  /**
   * Tokens a model reads of one tool answer at most: more is cut, head and tail kept, with how to
   * read the rest (main/mcp/answer/). A caller may ask for less, or up to 4 times this. 0 turns
   * the budget off (answers whole, up to the other limits), for hosts that cut answers themselves.
   */
  answerBudgetTokens: z
    .number({ error: ANSWER_BUDGET_RANGE })
    .int({ error: ANSWER_BUDGET_RANGE })
    .refine((n) => n === 0 || (n >= MIN_ANSWER_BUDGET && n <= MAX_ANSWER_BUDGET), { error: ANSWER_BUDGET_RANGE })
    .default(DEFAULT_ANSWER_BUDGET),
});
