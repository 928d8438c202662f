/**
 * gateway.*: the owner's other MCP servers (upstreams), reached through this one under the same
 * policy. Each entry is a program to run (command, args, cwd, env) or a Streamable HTTP URL, its
 * own folders and network, and how its tools are exposed (prefix, exclusions, annotations).
 *
 * Secret values (an API key in env, an HTTP upstream's bearer token) are never written here:
 * they are references (`{"secret": "NAME"}`) to the OS keyring, set with
 * `chatgpt-mcp gateway set-secret NAME`. A value that looks like a secret written inline is a
 * config error naming the entry.
 */
import * as z from 'zod';
import { absolutePath, text } from './fields.js';
import { isSecretEnvName } from '../secret-name.js';
import { LOADER_VARIABLE } from '../../../adapter/contract/loader-variables.js';

/** How a secret is named in the keyring: letters, digits and `._/-`. */
export const SECRET_REF = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;
export const secretRefSchema = z.strictObject({
  secret: z.string().regex(SECRET_REF, 'expected a secret name (letters, digits and . _ / -), as stored with "chatgpt-mcp gateway set-secret NAME"'),
});
export type SecretRef = z.output<typeof secretRefSchema>;

/** Names that are MCP-portable once joined (`<prefix>_<tool>` fits [A-Za-z0-9_-], at most 64 characters). */
export const UPSTREAM_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const PREFIX = /^[A-Za-z][A-Za-z0-9-]{0,23}$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the owner says a tool does, over whatever the upstream claims (or leaves out). */
export const TOOL_KINDS = ['read-only', 'local-state', 'destructive', 'open-world'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

export const START_MODES = ['lazy', 'at-start'] as const;

const toolsSchema = z.strictObject({
  /** When given, the only tools exposed, by exact upstream name (a tool the upstream adds later stays out); exclude still applies. */
  include: z.array(text).optional(),
  /** Tools never exposed, by exact upstream name. */
  exclude: z.array(text).default([]),
  /** Tools never exposed when their name contains one of these (case-insensitive, not a pattern). */
  excludeMatching: z.array(text).default([]),
  /** Per upstream tool name: what it does, over the upstream's own hints. */
  kinds: z.record(text, z.enum(TOOL_KINDS)).default({}),
  /** Per upstream tool name: more argument names that hold paths (besides those its schema marks). */
  pathArguments: z.record(text, z.array(text)).default({}),
});

const folderSchema = z.union([absolutePath, z.strictObject({ path: absolutePath, readOnly: z.boolean().default(false) })]);

const upstreamShape = {
  name: z.string().regex(UPSTREAM_NAME, 'expected 1 to 40 letters, digits, "_" or "-"'),
  /** Its tools are exposed as <prefix>_<tool>; default: the name without "_" and "-". */
  prefix: z.string().regex(PREFIX, 'expected a letter, then up to 23 letters, digits or "-"').optional(),
  enabled: z.boolean().default(true),
  /** "lazy": started by the first call to one of its tools; "at-start": with the server. */
  start: z.enum(START_MODES).default('lazy'),
  command: text.optional(),
  args: z.array(z.string().refine((s) => !s.includes('\0'), 'must not contain NUL')).default([]),
  cwd: absolutePath.optional(),
  /** Its whole environment besides PATH, LANG, HOME and TMPDIR: nothing of the server's is passed on. */
  env: z
    .record(
      z.string().regex(ENV_NAME, 'expected an environment variable name'),
      z.union([z.string().refine((s) => !s.includes('\0'), 'must not contain NUL'), secretRefSchema]),
    )
    .default({}),
  /** A Streamable HTTP upstream (another machine's server) instead of a command. */
  url: text.optional(),
  bearerToken: secretRefSchema.optional(),
  /** The folders its process sees (read-write unless readOnly); everything else of the owner's stays hidden. */
  folders: z.array(folderSchema).default([]),
  network: z.boolean().default(false),
  /** It may reach the display (only with desktop.hostDisplayAccess too). */
  display: z.boolean().default(false),
  /** false runs it with the owner's full rights (where no sandbox exists, it does not start without this). */
  sandbox: z.boolean().default(true),
  tools: toolsSchema.default(() => toolsSchema.parse({})),
  /** Stopped after this long without a call (0: never). */
  idleStopMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600_000)
    .default(600_000),
  startupTimeoutMs: z.number().int().min(1000).max(300_000).default(30_000),
  callTimeoutMs: z.number().int().min(1000).max(3600_000).default(120_000),
  /** Upstreams sharing a group take calls one at a time (a browser, a single-user database). */
  serialGroup: text.optional(),
};
const UPSTREAM_KEYS = new Set(Object.keys(upstreamShape));

// Loose, so an unknown key is reported here with the entry's name (a strict object would say only its index).
export const upstreamSchema = z.looseObject(upstreamShape).superRefine((entry, ctx) => {
  for (const key of Object.keys(entry)) {
    if (!UPSTREAM_KEYS.has(key)) {
      ctx.addIssue({ code: 'custom', path: [key], message: `unknown key in the entry "${entry.name}"; its keys are: ${[...UPSTREAM_KEYS].join(', ')}` });
    }
  }
  if ((entry.command === undefined) === (entry.url === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: `the entry "${entry.name}" needs either "command" (a program to run) or "url" (a Streamable HTTP server), not both`,
    });
  }
  if (entry.url !== undefined) {
    const problem = upstreamUrlProblem(entry.url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    for (const key of ['args', 'cwd', 'env', 'folders'] as const) {
      const value = entry[key];
      if (value !== undefined && (Array.isArray(value) ? value.length > 0 : typeof value === 'string' || Object.keys(value).length > 0)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'is for a command; an HTTP upstream (url) runs elsewhere' });
      }
    }
  } else if (entry.bearerToken !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['bearerToken'], message: 'is for an HTTP upstream (url); a command gets its secrets through env' });
  }
  for (const [name, value] of Object.entries(entry.env)) {
    // The loader's own (LD_PRELOAD...): code loaded before any program's, a library the upstream
    // may have written itself. The rest (PYTHONPATH, NODE_OPTIONS) only steer the upstream's own
    // program, which runs the upstream's code anyway.
    if (LOADER_VARIABLE.test(name)) {
      const message = `the entry "${entry.name}": ${name} makes the system's loader load code before any program's own, so a gateway entry may not set it`;
      ctx.addIssue({ code: 'custom', path: ['env', name], message });
      continue;
    }
    if (typeof value === 'string' && inlineSecret(name, value)) {
      ctx.addIssue({ code: 'custom', path: ['env', name], message: inlineSecretMessage(entry.name, name) });
    }
  }
  entry.args.forEach((arg, i) => {
    if (looksLikeToken(arg) || (/^--?(?:api[-_]?key|token|password|secret)=./i.test(arg) && !arg.endsWith(`=${NOT_COPIED}`))) {
      ctx.addIssue({
        code: 'custom',
        path: ['args', i],
        message: `looks like a secret written inline; pass it through env as a reference instead (${refHint(entry.name, 'TOKEN')})`,
      });
    }
  });
});

export const gatewaySchema = z
  .strictObject({
    servers: z.array(upstreamSchema).default([]),
  })
  .superRefine((gateway, ctx) => {
    const names = new Map<string, number>();
    const prefixes = new Map<string, number>();
    gateway.servers.forEach((entry, i) => {
      const name = entry.name.toLowerCase();
      if (names.has(name))
        ctx.addIssue({ code: 'custom', path: ['servers', i, 'name'], message: `"${entry.name}" is already the name of servers[${names.get(name)}]` });
      else names.set(name, i);
      const prefix = prefixOf(entry).toLowerCase();
      if (prefixes.has(prefix)) {
        ctx.addIssue({
          code: 'custom',
          path: ['servers', i, 'prefix'],
          message: `"${prefixOf(entry)}" (${entry.name}) is already the prefix of servers[${prefixes.get(prefix)}] (${gateway.servers[prefixes.get(prefix)!]!.name}); give each server its own`,
        });
      } else prefixes.set(prefix, i);
    });
  });

export type GatewayConfig = z.output<typeof gatewaySchema>;
export type UpstreamConfig = z.output<typeof upstreamSchema>;

/** The prefix an entry's tools are exposed under. */
export function prefixOf(entry: Pick<UpstreamConfig, 'name' | 'prefix'>): string {
  return entry.prefix ?? (entry.name.replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '') || 'upstream');
}

/** An http(s) URL without credentials in it; http only to this computer. */
export function upstreamUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'expected a URL like https://example.com/mcp';
  }
  if (url.username || url.password) return 'must not contain a user name or password; use bearerToken with a stored secret';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// (or http:// for this computer)';
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || /^127\./.test(url.hostname);
  if (url.protocol === 'http:' && !loopback) return 'must use https:// to reach another machine (a token sent over http:// can be read on the way)';
  if ([...url.searchParams.keys()].some((k) => /token|key|secret|auth|password/i.test(k))) {
    return 'must not carry a credential in its query; use bearerToken with a stored secret';
  }
  return null;
}

/** Token shapes of the common services (GitHub, OpenAI, Slack, AWS, GitLab, Google, Stripe, Anthropic) and bearer headers. */
const TOKEN_SHAPES = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bsk-[A-Za-z0-9_-]{20,}/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bAIza[0-9A-Za-z_-]{35}\b/,
  /\b[rs]k_live_[A-Za-z0-9]{20,}/,
  /^Bearer\s+\S{12,}/i,
];

/** What a pasted entry's secret argument reads instead of its value (main/config/pasted-secrets.ts): a placeholder, not a secret. */
export const NOT_COPIED = 'SECRET-NOT-COPIED';

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPES.some((shape) => shape.test(value));
}

/** A non-empty value under a name that says secret, or a value shaped like a known token. */
export function inlineSecret(name: string, value: string): boolean {
  return (isSecretEnvName(name) && value.trim() !== '') || looksLikeToken(value);
}

/** How to store a value the config holds inline, and refer to it instead. */
export function refHint(server: string, name: string): string {
  return `store it with "chatgpt-mcp gateway set-secret ${server}/${name}" and write {"secret": "${server}/${name}"}`;
}

export function inlineSecretMessage(server: string, name: string): string {
  return `is a secret written inline in the config file; ${refHint(server, name)}`;
}
