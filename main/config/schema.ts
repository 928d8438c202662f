/**
 * The configuration schema: the single source of truth for what the owner can grant. The
 * headless server parses with it at start, and the settings window validates with it before
 * saving, so this module must stay free of Node imports.
 *
 * Every section is strict (an unknown key is an error, not silently ignored) and every
 * default is the safe one: nothing writable, no shell, no processes, no desktop.
 */
import * as z from 'zod';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const AUTH_MODES = ['bearer', 'oauth', 'bearer+oauth', 'none'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3210;
export const MIN_TOKEN_LENGTH = 16;

const KiB = 1024;
const MiB = 1024 * KiB;

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
  /** Extra browser origins accepted, as full origins like `https://example.com`. */
  allowedOrigins: z.array(text).default([]),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /** "underscore" exposes fs_read instead of fs.read, for hosts that reject dots in tool names. */
  toolNames: z.enum(['dotted', 'underscore']).default('dotted'),
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
});

export const shellSchema = z.strictObject({
  enabled: z.boolean().default(false),
  allowedCommands: z.array(text).default([]),
  maxRuntimeMs: z
    .number()
    .int()
    .positive()
    .max(24 * 3600 * 1000)
    .default(120_000),
  maxOutputBytes: byteSize(256 * MiB).default(1 * MiB),
  allowEnv: z.boolean().default(false),
  allowPathEnv: z.boolean().default(false),
});

export const processSchema = z.strictObject({
  list: z.boolean().default(false),
  kill: z.boolean().default(false),
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

export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    server: serverSchema.default(() => serverSchema.parse({})),
    filesystem: filesystemSchema.default(() => filesystemSchema.parse({})),
    shell: shellSchema.default(() => shellSchema.parse({})),
    process: processSchema.default(() => processSchema.parse({})),
    desktop: desktopSchema.default(() => desktopSchema.parse({})),
    services: servicesSchema.default(() => servicesSchema.parse({})),
  })
  .superRefine((config, ctx) => {
    if (config.server.auth === 'none' && config.server.token !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['server', 'auth'],
        message: 'is "none" but a token is set (server.token or CHATGPT_MCP_TOKEN); remove one of them',
      });
    }
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
