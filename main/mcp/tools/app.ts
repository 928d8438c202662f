/** app.launch / app.close: only the applications the owner configured in desktop.apps. */
import * as z from 'zod';
import { defineTool, DESTRUCTIVE, OPEN_WORLD_DESTRUCTIVE } from '../tool.js';
import { GRANT } from '../../policy/grants.js';

const appName = z.string().min(1).max(64).describe('The name of a configured app (a key of desktop.apps; system.info lists them)');
const extraArg = z
  .string()
  .max(4096)
  .refine((s) => !s.includes('\0'), 'must not contain NUL');

export const appLaunch = defineTool({
  name: 'app.launch',
  title: 'Launch an application',
  description:
    'Starts one of the applications the owner configured (desktop.apps) by its name, detached and without a shell, and returns its process id. ' +
    'Extra arguments are accepted only for apps whose configuration allows them; they follow the configured fixed arguments.',
  input: z.object({
    name: appName,
    args: z.array(extraArg).max(64).optional().describe('Extra arguments, only for apps with allowExtraArgs'),
  }),
  output: z.object({ name: z.string(), pid: z.number().int() }),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.apps,
  target: (args) => ({ app: args.name, extraArgs: args.args?.length ?? 0 }),
  async run(args, { adapter, policy }) {
    const { pid } = await adapter.apps.launchApp(policy.apps.launch(args.name, args.args));
    return { structured: { name: args.name, pid }, text: `Launched ${args.name} (pid ${pid}).` };
  },
});

export const appClose = defineTool({
  name: 'app.close',
  title: 'Close an application',
  description:
    'Closes the running processes of a configured app (desktop.apps), or only the given pid if it is one of them. Processes are matched by their ' +
    'real executable, never by name; other pids are refused. Asks politely first (SIGTERM, or WM_CLOSE on Windows); with force, kills what is ' +
    'still running after a few seconds.',
  input: z.object({
    name: appName,
    pid: z.number().int().positive().optional().describe('Close only this process of the app'),
    force: z.boolean().default(false).describe('Kill processes that did not exit after the polite request'),
  }),
  output: z.object({
    name: z.string(),
    closed: z.array(z.number().int()),
    stillRunning: z.array(z.number().int()).describe('Processes asked to close that are still running (retry with force)'),
  }),
  annotations: DESTRUCTIVE,
  grant: GRANT.apps,
  target: (args) => ({ app: args.name, pid: args.pid, force: args.force }),
  async run(args, { adapter, policy }) {
    const options = { force: args.force, ...(args.pid === undefined ? {} : { pid: args.pid }) };
    const { closed, stillRunning } = await adapter.apps.closeApp(policy.apps.close(args.name), options);
    const text =
      closed.length || stillRunning.length
        ? `Closed ${args.name}: ${closed.length ? `pids ${closed.join(', ')}` : 'nothing'}${stillRunning.length ? `; still running: ${stillRunning.join(', ')}` : ''}.`
        : `${args.name} has no running process.`;
    return { structured: { name: args.name, closed, stillRunning }, text };
  },
});

export const appTools = [appLaunch, appClose];
