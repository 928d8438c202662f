/** The inventory tools through a real client: refused by default, listeners the test opens found with their pid, no secret value ever shown. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../main/mcp/tool.js';
import { bytes, inventoryTools } from '../../../main/mcp/tools/inventory.js';
import { localAdapter } from '../../helpers/adapter.js';
import { startTestServer, type TestServer } from '../../helpers/tool-server.js';

const TOOLS = inventoryTools as unknown as ToolDefinition[];
const SECRET = 'planted-s3cr3t-value-7f3a';

let server: TestServer;
let child: ChildProcess | undefined;

beforeAll(async () => {
  const env = {
    PATH: process.env.PATH,
    HOME: '/home/inventory-test',
    LANG: 'C.UTF-8',
    MY_API_TOKEN: SECRET,
    DB_PASSWORD: SECRET,
    AWS_SECRET_ACCESS_KEY: SECRET,
    GITHUB_AUTH: SECRET,
  };
  server = await startTestServer({ system: { inventory: true } }, localAdapter({ env }), TOOLS);
});
afterAll(async () => {
  child?.kill();
  await server?.close();
});

describe('the system.inventory grant', () => {
  it('is off by default: the tools are hidden and a call names the setting that grants them', async () => {
    const off = await startTestServer({}, localAdapter(), TOOLS);
    try {
      expect(await off.toolNames()).toEqual([]);
      for (const name of ['system.ports', 'system.disks', 'system.network', 'system.environment']) {
        const refused = await off.call(name);
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain('not granted');
        expect(refused.text).toContain('system.inventory');
      }
    } finally {
      await off.close();
    }
  });
});

const LISTENERS = `
const net = require('node:net'), dgram = require('node:dgram');
const tcp = net.createServer().listen(0, '127.0.0.1', () => {
  const udp = dgram.createSocket('udp4');
  udp.bind(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ tcp: tcp.address().port, udp: udp.address().port }) + '\\n'));
});`;

type Socket = { protocol: string; port: number; pid?: number; program?: string; listening: boolean };

describe.skipIf(process.platform === 'win32')('system.ports', () => {
  it('lists the TCP and UDP listeners a child opened, with its pid, one line each', async () => {
    child = spawn(process.execPath, ['-e', LISTENERS], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const ports = JSON.parse(line.toString()) as { tcp: number; udp: number };
    for (const [protocol, port] of [
      ['tcp', ports.tcp],
      ['udp', ports.udp],
    ] as const) {
      const result = await server.call('system.ports', { protocol, port });
      const sockets = (result.structured as { sockets: Socket[] }).sockets;
      expect(sockets).toEqual([expect.objectContaining({ protocol, port, pid: child.pid, listening: true })]);
      expect(result.text).toContain(`127.0.0.1:${port}`);
      expect(result.text).toContain(`pid ${child.pid} ${sockets[0]!.program}`);
    }
    const byProgram = await server.call('system.ports', { program: 'no-such-program-xyz' });
    expect(byProgram.text).toMatch(/^no matching sockets/);
  });

  it.skipIf(process.platform !== 'linux' || process.geteuid?.() !== 0)(
    "with process.ownOnly, another user's listener is listed without its pid and program, and a note says why",
    async () => {
      const stranger = spawn(process.execPath, ['-e', LISTENERS], { stdio: ['ignore', 'pipe', 'inherit'], uid: 65534, gid: 65534 });
      const own = await startTestServer({ system: { inventory: true }, process: { ownOnly: true } }, localAdapter(), TOOLS);
      try {
        const [line] = (await once(stranger.stdout!, 'data')) as [Buffer];
        const { tcp } = JSON.parse(line.toString()) as { tcp: number };
        const shown = (await server.call('system.ports', { protocol: 'tcp', port: tcp })).structured as { sockets: Socket[] };
        expect(shown.sockets).toEqual([expect.objectContaining({ port: tcp, pid: stranger.pid })]);
        const result = await own.call('system.ports', { protocol: 'tcp', port: tcp });
        const { sockets, notes } = result.structured as { sockets: Socket[]; notes: string[] };
        expect(sockets).toEqual([expect.not.objectContaining({ pid: expect.anything() })]);
        expect(sockets[0]).not.toHaveProperty('program');
        expect(notes).toContain('pid and program left out for 1 socket of other users (process.ownOnly is true)');
        expect(result.text).not.toContain(`pid ${stranger.pid}`);
      } finally {
        stranger.kill();
        await own.close();
      }
    },
  );

  it('pages with limit and offset', async () => {
    const first = await server.call('system.ports', { all: true, limit: 1 });
    const page = first.structured as { sockets: Socket[]; total: number; nextOffset?: number };
    expect(page.sockets).toHaveLength(1);
    if (page.total > 1) expect(first.text).toContain('[more: offset 1]');
  });
});

describe('system.disks', () => {
  it('shows / with its size and leaves pseudo filesystems out unless asked', async () => {
    const plain = await server.call('system.disks');
    const disks = (plain.structured as { disks: Array<{ mountPoint: string; pseudo: boolean; totalBytes?: number }> }).disks;
    if (process.platform !== 'win32') expect(disks.find((d) => d.mountPoint === '/')?.totalBytes).toBeGreaterThan(0);
    expect(disks.every((d) => !d.pseudo)).toBe(true);
    const all = await server.call('system.disks', { all: true });
    if (process.platform === 'linux') expect((all.structured as { disks: Array<{ pseudo: boolean }> }).disks.some((d) => d.pseudo)).toBe(true);
  });

  it('writes sizes as df -h does', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.5 KB');
    expect(bytes(5 * 1024 ** 3)).toBe('5.0 GB');
  });
});

describe('system.network', () => {
  it('lists the loopback interface', async () => {
    const result = await server.call('system.network');
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/\(loopback\)/);
  });
});

describe('system.environment', () => {
  it('shows every name, the allowed values, and never a planted secret', async () => {
    const result = await server.call('system.environment');
    const env = result.structured as { names: string[]; values: Array<{ name: string; value: string }>; nodeVersion: string };
    expect(env.names).toEqual(expect.arrayContaining(['MY_API_TOKEN', 'DB_PASSWORD', 'HOME', 'PATH']));
    expect(Object.fromEntries(env.values.map((v) => [v.name, v.value]))).toEqual({ PATH: process.env.PATH, HOME: '/home/inventory-test', LANG: 'C.UTF-8' });
    expect(env.nodeVersion).toBe(process.version);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.text).toContain('HOME=/home/inventory-test');
  });
});
