import * as z from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { capabilitySummary, capabilitySchema } from '../capabilities.js';
import { VERSION } from '../../version.js';

const output = z.object({
  hostname: z.string(),
  platform: z.string(),
  arch: z.string(),
  release: z.string(),
  uptimeSeconds: z.number(),
  cwd: z.string(),
  nodeVersion: z.string(),
  serverVersion: z.string(),
  capabilities: capabilitySchema,
  contract: z
    .object({ sha256: z.string(), tools: z.number() })
    .describe('SHA-256 over the exposed tools (names, schemas, annotations): it changes when an upgrade or a grant changes them'),
  /** The owner's other MCP servers behind the gateway (gateway.servers). */
  upstreams: z.array(
    z.object({ name: z.string(), prefix: z.string(), state: z.string(), tools: z.number(), held: z.number(), lastError: z.string().nullable() }),
  ),
  desktop: z
    .object({ backend: z.string(), limits: z.array(z.string()), granted: z.string().optional().describe("What the desktop's own dialog granted") })
    .optional()
    .describe('With display access: the desktop backend serving the session, and what it cannot do'),
});

export const systemInfo = defineTool({
  name: 'system.info',
  title: 'System information',
  description:
    "Basic facts about the computer (hostname, OS, architecture, uptime, working directory) and a summary of what this server is allowed to do: filesystem roots, allowed commands (and the sandbox they run in: where they may write, what they cannot see, network), enabled tool families, and the owner's other MCP servers reached through this one.",
  input: z.object({}),
  output,
  annotations: READ_ONLY,
  grant: GRANT.always,
  async run(_args, { adapter, config, enabledTools, policy, contract, upstreams: gateway }) {
    const info = await adapter.system.systemInfo();
    const capabilities = capabilitySummary(config, enabledTools, policy.sandbox.describe());
    const fingerprint = contract();
    const backend = config.desktop.hostDisplayAccess ? await adapter.desktop.backendInfo() : undefined;
    const desktop = backend ? { backend: backend.name, limits: backend.limits, ...(backend.granted ? { granted: backend.granted } : {}) } : undefined;
    const upstreams = (gateway?.() ?? []).map((u) => ({
      name: u.name,
      prefix: u.prefix,
      state: u.state,
      tools: u.tools.length,
      held: u.held.length,
      lastError: u.lastError,
    }));
    const structured = {
      ...info,
      serverVersion: VERSION,
      capabilities,
      contract: { sha256: fingerprint.sha256, tools: Object.keys(fingerprint.tools).length },
      upstreams,
      ...(desktop ? { desktop } : {}),
    };
    const roots = capabilities.filesystem.roots.map((r) => (r.readOnly ? `${r.path} (read-only)` : r.path));
    const text = [
      `${info.hostname} (${info.platform} ${info.arch}, ${info.release}), up ${formatUptime(info.uptimeSeconds)}.`,
      `Roots: ${roots.length ? roots.join(', ') : 'none'}${capabilities.filesystem.write ? '' : ' (reading only)'}.`,
      `Commands: ${capabilities.shell.enabled ? capabilities.shell.allowedCommands.join(', ') || 'none' : 'none (shell off)'}.`,
      ...(capabilities.shell.enabled ? capabilities.shell.sandbox.notes : []),
      `Tools: ${capabilities.tools.join(', ')}.`,
      ...(capabilities.readOnly ? ['Read-only: tools that change things are hidden (server.readOnly).'] : []),
      ...(upstreams.length
        ? [
            `Other MCP servers (their tools are <prefix>_<tool>): ${upstreams.map((u) => `${u.name} (${u.prefix}_*, ${u.tools} tools, ${u.state})`).join(', ')}.`,
          ]
        : []),
      ...(desktop
        ? [
            `Desktop: ${desktop.backend}${desktop.granted ? `; granted: ${desktop.granted}` : ''}${desktop.limits.length ? `; cannot: ${desktop.limits.join('; ')}` : ''}.`,
          ]
        : []),
    ].join('\n');
    return { structured, text };
  },
});

export const systemTools = [systemInfo];

function formatUptime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h}h ${m}m` : `${m}m`;
}
