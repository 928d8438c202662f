/**
 * audit.recent / audit.search: the audit log's redacted lines, for a model that must see what it
 * (and every other client of this server) did. Opt-in (audit.tools): the lines name other
 * clients and the paths and commands they used, never contents, output or secrets.
 */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import { GRANT } from '../../policy/grants.js';
import { defineTool, READ_ONLY, type AuditQuery, type ToolDeps } from '../tool.js';

const MAX_CALLS = 200;

const call = z.object({
  time: z.string().describe('When the call started (ISO 8601)'),
  tool: z.string(),
  client: z
    .object({ kind: z.enum(['oauth', 'token', 'host']), id: z.string().optional(), name: z.string().nullable().optional(), version: z.string().optional() })
    .describe('Who called: an OAuth client (id, name), the static bearer token, or a host by the name it gave'),
  profile: z.string().optional().describe("The profile the caller's credential got (settings: Profiles)"),
  target: z.string().describe('What the call targeted, redacted as the activity view shows it (path=/x/y)'),
  outcome: z.string().describe('ok, or the error code'),
  ms: z.number(),
});
const output = z.object({ calls: z.array(call), more: z.boolean().describe('Older matches exist: narrow with since, or raise limit') });
const limit = z.number().int().min(1).max(MAX_CALLS).optional();

function read(deps: ToolDeps, query: AuditQuery, operation: string) {
  if (!deps.audit) throw adapterError('CAPABILITY_DISABLED', operation, 'this server keeps no audit log (audit.enabled is off)');
  const wanted = query.limit ?? 20;
  const found = deps.audit.search({ ...query, limit: wanted + 1 });
  const calls = found.slice(-wanted);
  const lines = calls.map((c) => `${c.time} ${c.tool} ${c.outcome}${c.target ? ` ${c.target}` : ''}`);
  const more = found.length > wanted;
  const text =
    calls.length === 0 ? 'No recorded call matches.' : `${calls.length} call(s), oldest first${more ? ' (older ones exist)' : ''}:\n${lines.join('\n')}`;
  return { structured: { calls, more }, text };
}

function isoTime(value: string | undefined, name: string, operation: string): string | undefined {
  if (value === undefined) return undefined;
  if (Number.isNaN(Date.parse(value)))
    throw adapterError('INVALID_INPUT', operation, `${name} "${value}" is not a date or time: use ISO 8601 (2026-12-04 or 2026-12-04T09:30:00Z)`);
  return new Date(value).toISOString();
}

export const auditRecent = defineTool({
  name: 'audit.recent',
  title: 'Recent tool calls',
  description:
    "The last tool calls this server recorded in its audit log (every client's), oldest first: time, tool, caller, redacted target, outcome, duration.",
  input: z.object({ limit: limit.describe(`How many (default 20, at most ${MAX_CALLS})`) }),
  output,
  annotations: READ_ONLY,
  grant: GRANT.auditRead,
  target: (args) => ({ limit: args.limit ?? 20 }),
  async run(args, deps) {
    return read(deps, { limit: args.limit ?? 20 }, 'audit.recent');
  },
});

export const auditSearch = defineTool({
  name: 'audit.search',
  title: 'Search recorded tool calls',
  description: 'Searches the audit log: by tool, caller, outcome, time range and words in the recorded line; the newest matches, oldest first.',
  input: z.object({
    tool: z.string().max(200).optional().describe('A tool name (fs_read or fs.read)'),
    client: z.string().max(200).optional().describe("Part of the caller's name or id, any case"),
    outcome: z.string().max(64).optional().describe('ok, or an error code such as PATH_NOT_ALLOWED'),
    since: z.string().max(64).optional().describe('ISO 8601 date or time'),
    until: z.string().max(64).optional().describe('ISO 8601 date or time'),
    words: z.array(z.string().min(1).max(200)).max(8).optional().describe('Each must appear in the line (a path part, a command)'),
    limit: limit.describe(`How many (default 20, at most ${MAX_CALLS})`),
  }),
  output,
  annotations: READ_ONLY,
  grant: GRANT.auditRead,
  target: (args) => ({ tool: args.tool, client: args.client, outcome: args.outcome, since: args.since, until: args.until }),
  async run(args, deps) {
    const op = 'audit.search';
    const query: AuditQuery = { ...args, since: isoTime(args.since, 'since', op), until: isoTime(args.until, 'until', op), limit: args.limit ?? 20 };
    return read(deps, query, op);
  },
});

export const auditTools = [auditRecent, auditSearch];
