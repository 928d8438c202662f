/** What this server may do, as reported by system.info. Never includes the token. */
import * as z from 'zod';
import type { Config } from '../config/schema.js';
import { BUILT_IN_ENV_NAMES } from '../policy/env-names.js';
import type { SandboxSummary } from '../policy/sandbox.js';

/** Whether and how commands are isolated, and what they see (main/policy/sandbox.ts). */
const sandboxSchema = z.object({
  mode: z.enum(['private-home', 'workspace', 'read-only', 'off']),
  mechanism: z.enum(['bubblewrap', 'seatbelt']).nullable(),
  version: z.string().nullable(),
  network: z.enum(['on', 'off', 'loopback']),
  display: z.enum(['visible', 'hidden', 'abstract-sockets-reachable']),
  writable: z.array(z.string()),
  hidden: z.array(z.string()),
  notes: z.array(z.string()),
});

export const capabilitySchema = z.object({
  tools: z.array(z.string()),
  /** server.readOnly: every tool that changes something is hidden. */
  readOnly: z.boolean(),
  filesystem: z.object({
    read: z.boolean(),
    write: z.boolean(),
    roots: z.array(z.object({ path: z.string(), readOnly: z.boolean() })),
    maxReadBytes: z.number(),
    maxWriteBytes: z.number(),
  }),
  shell: z.object({
    enabled: z.boolean(),
    allowedCommands: z.array(z.string()),
    maxRuntimeMs: z.number(),
    maxOutputBytes: z.number(),
    /** Environment names a caller may set (LC_* stands for every LC_ name); empty without shell.allowEnv. */
    allowedEnv: z.array(z.string()),
    maxConcurrent: z.number(),
    sandbox: sandboxSchema,
  }),
  process: z.object({ list: z.boolean(), kill: z.boolean(), ownOnly: z.boolean() }),
  desktop: z.object({ hostDisplayAccess: z.boolean(), screen: z.boolean(), input: z.boolean(), browser: z.boolean(), apps: z.array(z.string()) }),
  services: z.object({ allowed: z.array(z.string()), control: z.boolean() }),
});

export type CapabilitySummary = z.output<typeof capabilitySchema>;

export function capabilitySummary(config: Readonly<Config>, tools: readonly string[], sandbox: SandboxSummary): CapabilitySummary {
  const { filesystem: fs, shell, desktop } = config;
  const display = desktop.hostDisplayAccess;
  return {
    tools: [...tools],
    readOnly: config.server.readOnly,
    filesystem: {
      read: fs.read,
      write: fs.write,
      roots: fs.roots.map((root) => (typeof root === 'string' ? { path: root, readOnly: false } : { path: root.path, readOnly: root.readOnly })),
      maxReadBytes: fs.maxReadBytes,
      maxWriteBytes: fs.maxWriteBytes,
    },
    shell: {
      enabled: shell.enabled,
      allowedCommands: shell.enabled ? [...shell.allowedCommands] : [],
      maxRuntimeMs: shell.maxRuntimeMs,
      maxOutputBytes: shell.maxOutputBytes,
      allowedEnv: shell.enabled && shell.allowEnv ? [...BUILT_IN_ENV_NAMES, ...(shell.allowPathEnv ? ['PATH'] : []), ...shell.allowedEnv] : [],
      maxConcurrent: shell.maxConcurrent,
      sandbox: { ...sandbox, writable: [...sandbox.writable], hidden: [...sandbox.hidden], notes: [...sandbox.notes] },
    },
    process: { list: config.process.list, kill: config.process.kill, ownOnly: config.process.ownOnly },
    desktop: {
      hostDisplayAccess: display,
      screen: display && desktop.screen,
      input: display && desktop.input,
      browser: display && desktop.browser,
      apps: display && desktop.appControl ? Object.keys(desktop.apps) : [],
    },
    services: { allowed: [...config.services.allowed], control: config.services.control },
  };
}
