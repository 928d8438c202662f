/** service.status / service.control: only the services the owner listed in services.allowed. */
import * as z from 'zod';
import { defineTool, DESTRUCTIVE, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';

const serviceName = z
  .string()
  .min(1)
  .max(140)
  .describe('A service name listed in services.allowed (system.info lists them); user:<name> is a per-user unit or agent');

const status = {
  name: z.string(),
  manager: z.enum(['systemd', 'launchd', 'windows']),
  state: z.string().describe("The manager's state: systemd active/inactive/failed..., launchd running/not running..., Windows running/stopped/...-pending"),
  enabled: z.boolean().optional().describe('Whether the manager starts it automatically, when known'),
  detail: z.string().optional(),
};

export const serviceStatus = defineTool({
  name: 'service.status',
  title: 'Service status',
  description: 'Reports whether an allowed system service is running and enabled, from systemd (Linux), launchd (macOS) or the Windows service manager.',
  input: z.object({ name: serviceName }),
  output: z.object(status),
  annotations: READ_ONLY,
  grant: GRANT.serviceStatus,
  target: (args) => ({ service: args.name }),
  async run(args, { adapter, policy }) {
    const name = policy.services.status(args.name);
    const result = await adapter.services.serviceStatus(name);
    const enabled = result.enabled === undefined ? '' : result.enabled ? ', enabled' : ', not enabled';
    return { structured: { name, ...result }, text: `${name} (${result.manager}): ${result.state}${enabled}${result.detail ? ` (${result.detail})` : ''}.` };
  },
});

export const serviceControl = defineTool({
  name: 'service.control',
  title: 'Start, stop or restart a service',
  description:
    'Starts, stops or restarts an allowed system service and reports its state afterwards. Needs services.control and an OS account allowed to manage it.',
  input: z.object({ name: serviceName, action: z.enum(['start', 'stop', 'restart']) }),
  output: z.object({ ...status, action: z.enum(['start', 'stop', 'restart']) }),
  annotations: DESTRUCTIVE,
  grant: GRANT.serviceControl,
  target: (args) => ({ service: args.name, action: args.action }),
  async run(args, { adapter, policy }) {
    const name = policy.services.control(args.name);
    const result = await adapter.services.serviceControl(name, args.action);
    return { structured: { name, action: args.action, ...result }, text: `${args.action} ${name} (${result.manager}): now ${result.state}.` };
  },
});

export const serviceTools = [serviceStatus, serviceControl];
