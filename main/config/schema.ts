/**
 * The configuration schema: the single source of truth for what the owner can grant. The
 * headless server parses with it at start, and the settings window validates with it before
 * saving, so this module must stay free of Node imports.
 *
 * Every section is strict (an unknown key is an error, not silently ignored) and every
 * default is the safe one: nothing writable, no shell, no processes, no desktop.
 */
import * as z from 'zod';
import { codeRunningReason } from '../policy/env-names.js';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const AUTH_MODES = ['bearer', 'oauth', 'bearer+oauth', 'none'] as const;

/** How commands are isolated (main/policy/sandbox-mode.ts says what "auto" means on each OS). */
export const SANDBOX_MODES = ['auto', 'workspace', 'read-only', 'off'] as const;
export type SandboxSetting = (typeof SANDBOX_MODES)[number];
/** The network commands get inside the sandbox; "auto" is "off" when sandboxed. */
export const NETWORK_MODES = ['auto', 'on', 'off', 'loopback'] as const;
export type NetworkSetting = (typeof NETWORK_MODES)[number];
export type AuthMode = (typeof AUTH_MODES)[number];

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3210;
export const MIN_TOKEN_LENGTH = 16;

const KiB = 1024;
const MiB = 1024 * KiB;

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

/** POSIX absolute (`/x`), Windows drive (`C:\x`, `C:/x`) or UNC (`\\server\share`). */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

const text = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => !s.includes('\0'), 'must not contain NUL');

const absolutePath = text.refine((s) => ABSOLUTE_PATH.test(s), {
  message: 'expected an absolute path (like /home/me/projects or C:\\Users\\me\\projects)',
});

const byteSize = (max: number) => z.number().int().positive().max(max);

export const rootSchema = z.union([absolutePath, z.strictObject({ path: absolutePath, readOnly: z.boolean().default(false) })]);

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
});

export const filesystemSchema = z.strictObject({
  read: z.boolean().default(true),
  write: z.boolean().default(false),
  roots: z.array(rootSchema).default([]),
  maxReadBytes: byteSize(256 * MiB).default(1 * MiB),
  maxWriteBytes: byteSize(256 * MiB).default(4 * MiB),
  /** The built-in denylist of secret locations (.ssh, .env, keys...) inside roots. */
  protectSecrets: z.boolean().default(true),
  /** Extra deny patterns (globs matched against path segments). */
  deny: z.array(text).default([]),
  /** Let tools write .git/hooks/ and .git/config, which run code on the owner's next git command. */
  allowGitHookWrites: z.boolean().default(false),
  /** Let tools write files that have other hard links (the change shows under every name, possibly outside the roots). */
  allowHardLinkWrites: z.boolean().default(false),
});

export const shellSchema = z.strictObject({
  enabled: z.boolean().default(false),
  allowedCommands: z.array(text).default([]),
  /** The longest one call waits for a command (then it is killed, or moved to a handle); not a bound on handles. */
  maxRuntimeMs: z
    .number()
    .int()
    .positive()
    .max(24 * 3600 * 1000)
    .default(120_000),
  maxOutputBytes: byteSize(256 * MiB).default(1 * MiB),
  allowEnv: z.boolean().default(false),
  /** Processes kept under handles at once (process.start, and shell.exec commands moved to a handle); they hold no maxConcurrent slot. */
  maxProcesses: z.number().int().min(1).max(64).default(8),
  /** A process handle nobody asked about for this long is stopped and forgotten. */
  processIdleMs: z
    .number()
    .int()
    .min(1000)
    .max(7 * 24 * 3600 * 1000)
    .default(15 * 60 * 1000),
  allowPathEnv: z.boolean().default(false),
  /** With allowEnv: names callers may set besides the built-in harmless ones (LANG, TZ, TERM...). */
  allowedEnv: z.array(text).default([]),
  /** Commands running inside calls at once (not handles); more calls wait in a queue of 4x this many, then fail with TIMEOUT. */
  maxConcurrent: z.number().int().positive().max(256).default(8),
  /**
   * OS isolation of every command: "workspace" (writes only in writable roots and a private temp
   * folder; secrets, this app's folders and other users' homes hidden), "read-only" (no writes but
   * the private temp folder), "off" (the owner's full rights), "auto" (workspace on Linux, off on
   * macOS and Windows). A sandbox that cannot be set up stops the server at start.
   */
  sandbox: z.enum(SANDBOX_MODES).default('auto'),
  /** Inside the sandbox: "on" (this computer's network), "off" (none), "loopback" (macOS only), "auto" (off when sandboxed). */
  network: z.enum(NETWORK_MODES).default('auto'),
});

export const processSchema = z.strictObject({
  list: z.boolean().default(false),
  kill: z.boolean().default(false),
  /** List and signal only the processes of the user this server runs as. */
  ownOnly: z.boolean().default(false),
});

export const appSchema = z.strictObject({
  path: absolutePath,
  args: z.array(z.string()).default([]),
  allowExtraArgs: z.boolean().default(false),
});

export const desktopSchema = z.strictObject({
  /** Master grant: nothing below works, and shell children lose the display, without it. */
  hostDisplayAccess: z.boolean().default(false),
  screen: z.boolean().default(false),
  input: z.boolean().default(false),
  browser: z.boolean().default(false),
  appControl: z.boolean().default(false),
  apps: z.record(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'app names use letters, digits, . _ -'), appSchema).default({}),
  /** URL patterns browser.open may open; empty means any http(s) URL. */
  browserUrls: z.array(text).default([]),
  /** screen.capture may also write its image into a writable filesystem root (saveTo). */
  saveCaptures: z.boolean().default(false),
});

export const servicesSchema = z.strictObject({
  allowed: z.array(z.string().regex(/^[A-Za-z0-9@._:-]{1,128}$/, 'service names use letters, digits, @ . _ : -')).default([]),
  control: z.boolean().default(false),
});

export const chatgptSchema = z.strictObject({
  /** Offer ChatGPT's \`search\` and \`fetch\` tools (needed for connectors and deep research outside developer mode), read-only over the roots. */
  searchFetch: z.boolean().default(false),
});

/** OpenAI's tunnel ids: `tunnel_` and 32 lowercase letters or digits (the check the tunnel client makes). */
export const TUNNEL_ID_PATTERN = /^tunnel_[a-z0-9]{32}$/;

/**
 * The supervised OpenAI Secure MCP Tunnel client. Identity and preferences only: the runtime
 * key is a secret and lives in the OS secret store (main/tunnel/secret-store.ts), never here.
 */
export const tunnelSchema = z.strictObject({
  /** The tunnel to serve, from the OpenAI Platform's Tunnels page. */
  tunnelId: z.string().regex(TUNNEL_ID_PATTERN, 'expected tunnel_ followed by 32 lowercase letters or digits').optional(),
  /** Start the tunnel client whenever the server starts (tray app). */
  connectAtStart: z.boolean().default(false),
  /** The tunnel-client program the owner picked; otherwise the app's own copy, then PATH. */
  clientPath: absolutePath.optional(),
});

export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    server: serverSchema.default(() => serverSchema.parse({})),
    filesystem: filesystemSchema.default(() => filesystemSchema.parse({})),
    shell: shellSchema.default(() => shellSchema.parse({})),
    process: processSchema.default(() => processSchema.parse({})),
    desktop: desktopSchema.default(() => desktopSchema.parse({})),
    services: servicesSchema.default(() => servicesSchema.parse({})),
    chatgpt: chatgptSchema.default(() => chatgptSchema.parse({})),
    tunnel: tunnelSchema.default(() => tunnelSchema.parse({})),
  })
  .superRefine((config, ctx) => {
    if (config.server.auth === 'none' && config.server.token !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['server', 'auth'],
        message: 'is "none" but a token is set (server.token or CHATGPT_MCP_TOKEN); remove one of them',
      });
    }
    config.shell.allowedEnv.forEach((name, i) => {
      const reason = codeRunningReason(name, { allowPathEnv: config.shell.allowPathEnv });
      if (reason) ctx.addIssue({ code: 'custom', path: ['shell', 'allowedEnv', i], message: reason });
    });
    if (config.server.maxRequestBytes <= config.filesystem.maxWriteBytes) {
      ctx.addIssue({
        code: 'custom',
        path: ['server', 'maxRequestBytes'],
        message: `must be larger than filesystem.maxWriteBytes (${config.filesystem.maxWriteBytes}) so a full write fits in one request`,
      });
    }
  });

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type Root = z.output<typeof rootSchema>;
