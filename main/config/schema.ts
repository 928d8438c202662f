/**
 * The configuration schema: the single source of truth for what the owner can grant. The
 * headless server parses with it at start, and the settings window validates with it before
 * saving, so this module must stay free of Node imports.
 *
 * One file per section in sections/; this module composes them and checks what spans sections.
 * Every section is strict (an unknown key is an error, not silently ignored) and every
 * default is the safe one: nothing writable, no shell, no processes, no desktop.
 */
import * as z from 'zod';
import { codeRunningReason } from '../policy/env-names.js';
import { auditSchema } from './sections/audit.js';
import { chatgptSchema } from './sections/chatgpt.js';
import { checksSchema } from './sections/checks.js';
import { desktopSchema } from './sections/desktop.js';
import { downloadSchema } from './sections/download.js';
import { filesystemSchema, type rootSchema } from './sections/filesystem.js';
import { gatewaySchema } from './sections/gateway.js';
import { gitSchema } from './sections/git.js';
import { processSchema } from './sections/process.js';
import { profilesSchema } from './sections/profiles.js';
import { serverSchema } from './sections/server.js';
import { servicesSchema } from './sections/services.js';
import { shellSchema } from './sections/shell.js';
import { systemSchema } from './sections/system.js';
import { tunnelSchema } from './sections/tunnel.js';
import { updatesSchema } from './sections/updates.js';
import { undoSchema } from './sections/undo.js';

export * from './sections/audit.js';
export * from './sections/chatgpt.js';
export * from './sections/checks.js';
export * from './sections/desktop.js';
export * from './sections/download.js';
export * from './sections/filesystem.js';
export * from './sections/gateway.js';
export * from './sections/git.js';
export * from './sections/process.js';
export * from './sections/profiles.js';
export * from './sections/server.js';
export * from './sections/services.js';
export * from './sections/shell.js';
export * from './sections/system.js';
export * from './sections/tunnel.js';
export * from './sections/updates.js';
export * from './sections/undo.js';

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
    gateway: gatewaySchema.default(() => gatewaySchema.parse({})),
    updates: updatesSchema.default(() => updatesSchema.parse({})),
    git: gitSchema.default(() => gitSchema.parse({})),
    checks: checksSchema.default(() => checksSchema.parse({})),
    undo: undoSchema.default(() => undoSchema.parse({})),
    audit: auditSchema.default(() => auditSchema.parse({})),
    system: systemSchema.default(() => systemSchema.parse({})),
    download: downloadSchema.default(() => downloadSchema.parse({})),
    profiles: profilesSchema.default(() => profilesSchema.parse({})),
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
