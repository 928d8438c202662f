/**
 * The computer's inventory, read only, behind system.inventory: listening sockets, filesystems,
 * network interfaces, the server's environment. One line a row; the notes say what this OS or
 * this user cannot know.
 */
import * as z from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { mayShowValue, shownValueNames } from '../../policy/inventory.js';
import { digits } from '../answer/answer-budget.js';
import type { SocketEntry } from '../../../adapter/contract/inventory.js';

const DEFAULT_LIMIT = 200;
const page = {
  limit: z.number().int().positive().max(5_000).default(DEFAULT_LIMIT),
  offset: z.number().int().min(0).default(0).describe('Rows to skip (the nextOffset of the previous page)'),
};
const paged = { truncated: z.boolean(), total: z.number().int(), nextOffset: z.number().int().optional(), notes: z.array(z.string()) };

function pageOf<T>(rows: readonly T[], offset: number, limit: number) {
  const shown = rows.slice(offset, offset + limit);
  const truncated = rows.length > offset + shown.length;
  return { shown, truncated, total: rows.length, ...(truncated ? { nextOffset: offset + shown.length } : {}) };
}

function pagedText(head: string, lines: string[], nextOffset: number | undefined, notes: readonly string[]): string {
  return [head, ...lines, ...(nextOffset === undefined ? [] : [`[more: offset ${nextOffset}]`]), ...notes.map((n) => `[${n}]`)].join('\n');
}

const socket = z.object({
  protocol: z.enum(['tcp', 'udp']),
  family: z.union([z.literal(4), z.literal(6)]),
  address: z.string(),
  port: z.number().int(),
  state: z.string(),
  listening: z.boolean(),
  remoteAddress: z.string().optional(),
  remotePort: z.number().int().optional(),
  pid: z.number().int().optional().describe('Left out when the OS did not say (see notes)'),
  program: z.string().optional(),
});

export const systemPorts = defineTool({
  name: 'system.ports',
  title: 'Listening ports',
  description:
    'The TCP and UDP sockets listening on this computer (address, port, protocol, pid, program), from the OS itself. ' +
    'all: true adds every other socket (connections, with their peer). Filter by protocol, port or a program substring. ' +
    "Without root, other users' sockets may have no pid (the notes say so).",
  input: z.object({
    protocol: z.enum(['tcp', 'udp']).optional(),
    port: z.number().int().min(0).max(65_535).optional().describe('Only sockets on this local port'),
    program: z.string().min(1).optional().describe('Case-insensitive substring of the program name'),
    all: z.boolean().default(false).describe('Every socket, not only listening ones'),
    ...page,
  }),
  output: z.object({ sockets: z.array(socket), ...paged }),
  payload: ['sockets'],
  annotations: READ_ONLY,
  grant: GRANT.inventory,
  target: (args) => ({ protocol: args.protocol ?? null, port: args.port ?? null, program: args.program ?? null }),
  async run(args, { adapter, policy }) {
    const listed = await adapter.inventory.listSockets({ all: args.all });
    const needle = args.program?.toLowerCase();
    // Named or not before any filter: a program filter must not find what it may not show.
    const anonymous = new Set<object>();
    const visible = listed.value.map(({ uid, ...s }): Omit<SocketEntry, 'uid'> => {
      if (s.pid === undefined || policy.process.showsSocketOwner(uid)) return s;
      const { pid: _pid, program: _program, ...unnamed } = s;
      anonymous.add(unnamed);
      return unnamed;
    });
    const rows = visible
      .filter((s) => (!args.protocol || s.protocol === args.protocol) && (args.port === undefined || s.port === args.port))
      .filter((s) => !needle || (s.program ?? '').toLowerCase().includes(needle))
      .sort((a, b) => cmp(a.protocol, b.protocol) || a.port - b.port || cmp(a.address, b.address));
    const hidden = rows.filter((s) => anonymous.has(s)).length;
    const notes = hidden
      ? [...listed.notes, `pid and program left out for ${hidden} socket${hidden === 1 ? '' : 's'} of other users (process.ownOnly is true)`]
      : listed.notes;
    const { shown, ...rest } = pageOf(rows, args.offset, args.limit);
    const lines = shown.map(
      (s) =>
        `${s.protocol}${s.family === 6 ? '6' : ''} ${endpoint(s.address, s.port)} ${s.state}${s.remoteAddress ? ` ${endpoint(s.remoteAddress, s.remotePort ?? 0)}` : ''} ${s.pid === undefined ? 'pid ?' : `pid ${s.pid} ${s.program ?? '?'}`}`,
    );
    const head = rows.length
      ? `${digits(rows.length)} ${args.all ? 'sockets' : 'listening sockets'}: protocol address state [peer] pid program`
      : 'no matching sockets';
    return { structured: { sockets: shown, ...rest, notes }, text: pagedText(head, lines, rest.nextOffset, notes) };
  },
});

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function endpoint(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

export const systemDisks = defineTool({
  name: 'system.disks',
  title: 'Disks and filesystems',
  description:
    'Mounted filesystems with their size, used and available space. Kernel and memory filesystems (proc, sysfs, tmpfs, squashfs...) are left out unless all is true.',
  input: z.object({ all: z.boolean().default(false).describe('Include kernel and memory filesystems'), ...page }),
  output: z.object({
    disks: z.array(
      z.object({
        device: z.string(),
        mountPoint: z.string(),
        type: z.string().optional(),
        pseudo: z.boolean(),
        readOnly: z.boolean().optional(),
        totalBytes: z.number().optional(),
        usedBytes: z.number().optional(),
        availableBytes: z.number().optional(),
        error: z.string().optional(),
      }),
    ),
    ...paged,
  }),
  payload: ['disks'],
  annotations: READ_ONLY,
  grant: GRANT.inventory,
  async run(args, { adapter }) {
    const listed = await adapter.inventory.listDisks();
    const rows = listed.value.filter((d) => args.all || !d.pseudo);
    const hidden = listed.value.length - rows.length;
    const notes = [...listed.notes, ...(hidden ? [`${hidden} kernel or memory filesystems left out; all: true lists them`] : [])];
    const { shown, ...rest } = pageOf(rows, args.offset, args.limit);
    const lines = shown.map((d) => {
      const space =
        d.totalBytes === undefined
          ? d.error
            ? `size unknown (${d.error})`
            : ''
          : `size ${bytes(d.totalBytes)} used ${bytes(d.usedBytes ?? 0)}${d.totalBytes ? ` (${Math.round(((d.usedBytes ?? 0) / d.totalBytes) * 100)}%)` : ''} available ${bytes(d.availableBytes ?? 0)}`;
      return `${d.mountPoint} ${d.type ?? '?'} ${d.device}${d.readOnly ? ' read-only' : ''} ${space}`.trimEnd();
    });
    const head = `${rows.length} filesystems: mount type device size used available`;
    return { structured: { disks: shown, ...rest, notes }, text: pagedText(head, lines, rest.nextOffset, notes) };
  },
});

/** 1.5 GB, binary units, as df -h prints them. */
export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) [value, unit] = [value / 1024, unit + 1];
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export const systemNetwork = defineTool({
  name: 'system.network',
  title: 'Network interfaces',
  description: 'Network interfaces with their addresses and MAC, the default routes (gateway) and the DNS servers. Reads only: no traffic is sent.',
  input: z.object({}),
  output: z.object({
    interfaces: z.array(
      z.object({
        name: z.string(),
        internal: z.boolean(),
        mac: z.string().optional(),
        addresses: z.array(z.object({ address: z.string(), family: z.union([z.literal(4), z.literal(6)]), cidr: z.string().nullable() })),
      }),
    ),
    defaultRoutes: z.array(z.object({ family: z.union([z.literal(4), z.literal(6)]), gateway: z.string(), interface: z.string() })).optional(),
    dnsServers: z.array(z.string()).optional(),
    notes: z.array(z.string()),
  }),
  payload: ['interfaces'],
  annotations: READ_ONLY,
  grant: GRANT.inventory,
  async run(_args, { adapter }) {
    const { value, notes } = await adapter.inventory.networkSummary();
    const lines = value.interfaces.map(
      (i) =>
        `${i.name}${i.internal ? ' (loopback)' : ''}${i.mac ? ` ${i.mac}` : ''}: ${i.addresses.map((a) => a.cidr ?? a.address).join(', ') || 'no address'}`,
    );
    if (value.defaultRoutes) lines.push(`default route: ${value.defaultRoutes.map((r) => `${r.gateway} via ${r.interface}`).join(', ') || 'none'}`);
    if (value.dnsServers) lines.push(`DNS: ${value.dnsServers.join(', ') || 'none listed'}`);
    return { structured: { ...value, notes }, text: pagedText(`${value.interfaces.length} interfaces:`, lines, undefined, notes) };
  },
});

export const systemEnvironment = defineTool({
  name: 'system.environment',
  title: 'Environment',
  description:
    "The server's environment: OS, architecture and Node versions, login shells, well-known runtimes found on PATH (with the versions their installs show), every environment variable NAME, and the values of a short harmless list only " +
    `(${shownValueNames().slice(0, 12).join(', ')}, ...). Other values, and anything secret-named, are never shown.`,
  input: z.object({}),
  output: z.object({
    platform: z.string(),
    arch: z.string(),
    release: z.string(),
    osVersion: z.string(),
    nodeVersion: z.string(),
    names: z.array(z.string()),
    values: z.array(z.object({ name: z.string(), value: z.string() })).describe('The allowed names that are set, with their values'),
    shells: z.array(z.string()).optional(),
    programs: z.array(
      z.object({ name: z.string(), path: z.string(), version: z.string().optional().describe("From its install's files or path; never by running it") }),
    ),
    notes: z.array(z.string()),
  }),
  payload: ['names'],
  annotations: READ_ONLY,
  grant: GRANT.inventory,
  async run(_args, { adapter }) {
    const { value, notes } = await adapter.inventory.environmentSummary(shownValueNames());
    const values = Object.entries(value.values)
      .filter(([name]) => mayShowValue(name))
      .map(([name, v]) => ({ name, value: v }));
    const lines = [
      `${value.platform} ${value.arch} ${value.release} (${value.osVersion}), Node ${value.nodeVersion}`,
      ...(value.shells ? [`shells: ${value.shells.join(', ') || 'none'}`] : []),
      `on PATH: ${value.programs.map((p) => `${p.name}${p.version ? ` ${p.version}` : ''} ${p.path}`).join(', ') || 'none of the well-known runtimes'}`,
      ...values.map((v) => `${v.name}=${v.value}`),
      `${value.names.length} variables (names only): ${value.names.join(' ')}`,
    ];
    return { structured: { ...value, values, notes }, text: pagedText('Environment:', lines, undefined, notes) };
  },
});

export const inventoryTools = [systemPorts, systemDisks, systemNetwork, systemEnvironment];
