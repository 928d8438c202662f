/** What this server may do, as reported by system.info. Never includes the token. */
import * as z from 'zod';
import type { Config } from '../config/schema.js';

export const capabilitySchema = z.object({
  tools: z.array(z.string()),
  filesystem: z.object({
    read: z.boolean(),
    write: z.boolean(),
    roots: z.array(z.object({ path: z.string(), readOnly: z.boolean() })),
    maxReadBytes: z.number(),
    maxWriteBytes: z.number(),
  }),
  shell: z.object({ enabled: z.boolean(), allowedCommands: z.array(z.string()), maxRuntimeMs: z.number(), maxOutputBytes: z.number() }),
  process: z.object({ list: z.boolean(), kill: z.boolean() }),
  desktop: z.object({ hostDisplayAccess: z.boolean(), screen: z.boolean(), input: z.boolean(), browser: z.boolean(), apps: z.array(z.string()) }),
  services: z.object({ allowed: z.array(z.string()), control: z.boolean() }),
});

export type CapabilitySummary = z.output<typeof capabilitySchema>;

export function capabilitySummary(config: Readonly<Config>, tools: readonly string[]): CapabilitySummary {
  const { filesystem: fs, shell, desktop } = config;
  const display = desktop.hostDisplayAccess;
  return {
    tools: [...tools],
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
    },
    process: { ...config.process },
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
