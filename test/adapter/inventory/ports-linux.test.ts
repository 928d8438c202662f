/** Linux sockets: /proc/net tables parsed from captured samples, and real loopback listeners a child opens found with its pid. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listLinuxSockets, parseProcNet } from '../../../adapter/inventory/ports-linux.js';

// Captured on x86_64 (little-endian): a listener on 127.0.0.1:3210, a connection to it, a v6 one on [::1]:8080 and a mapped v4 peer.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0C8A 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 41234 1 0000000000000000 100 0 0 10 0
   1: 0100007F:C350 0100007F:0C8A 01 00000000:00000000 00:00000000 00000000  1000        0 41300 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5150 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000200007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 5151 1 0000000000000000 100 0 0 10 0
`;
const UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  100: 00000000:14E9 00000000:0000 07 00000000:00000000 00:00000000 00000000   104        0 1900 2 0000000000000000 0
  101: 0100007F:8C3B 0100007F:14E9 01 00000000:00000000 00:00000000 00000000  1000        0 1901 2 0000000000000000 0
`;

describe('parseProcNet', () => {
  it('reads addresses, ports, states and inodes of TCP over IPv4', () => {
    const [listen, conn] = parseProcNet(TCP, 'tcp', 4, true);
    expect(listen).toEqual({ protocol: 'tcp', family: 4, address: '127.0.0.1', port: 3210, state: 'LISTEN', listening: true, uid: 1000, inode: 41234 });
    expect(conn).toMatchObject({ port: 50000, state: 'ESTABLISHED', listening: false, remoteAddress: '127.0.0.1', remotePort: 3210 });
  });

  it('writes IPv6 compressed and IPv4-mapped addresses dotted', () => {
    const [loop, mapped] = parseProcNet(TCP6, 'tcp', 6, true);
    expect(loop).toMatchObject({ address: '::1', port: 8080, listening: true });
    expect(mapped).toMatchObject({ address: '::ffff:127.0.0.1', remoteAddress: '::ffff:127.0.0.2', remotePort: 54321 });
  });

  it('takes an unconnected UDP socket as listening and a connected one as not', () => {
    const [bound, connected] = parseProcNet(UDP, 'udp', 4, true);
    expect(bound).toMatchObject({ address: '0.0.0.0', port: 5353, state: 'BOUND', listening: true });
    expect(connected).toMatchObject({ state: 'CONNECTED', listening: false, remotePort: 5353 });
  });

  it('reads the same words on a big-endian host', () => {
    const big = TCP.replace('0100007F:0C8A 00000000', '7F000001:0C8A 00000000');
    expect(parseProcNet(big, 'tcp', 4, false)[0]!.address).toBe('127.0.0.1');
  });
});

const LISTENERS = `
const net = require('node:net'), dgram = require('node:dgram');
const tcp = net.createServer().listen(0, '127.0.0.1', () => {
  const udp = dgram.createSocket('udp4');
  udp.bind(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ tcp: tcp.address().port, udp: udp.address().port }) + '\\n'));
});`;

describe.skipIf(process.platform !== 'linux')('listLinuxSockets on this machine', () => {
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill());

  it('finds the TCP and UDP listeners a child opened on loopback, with its pid and program', async () => {
    child = spawn(process.execPath, ['-e', LISTENERS], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const ports = JSON.parse(line.toString()) as { tcp: number; udp: number };
    const { value } = await listLinuxSockets({ all: false });
    const program = path.basename(process.execPath).slice(0, 15);
    expect(value.find((s) => s.protocol === 'tcp' && s.port === ports.tcp)).toMatchObject({ address: '127.0.0.1', state: 'LISTEN', pid: child.pid, program });
    expect(value.find((s) => s.protocol === 'udp' && s.port === ports.udp)).toMatchObject({ address: '127.0.0.1', state: 'BOUND', pid: child.pid, program });
    expect(value.every((s) => s.listening)).toBe(true);
  });
});

/** As another user: the built module run by nobody, while this (root) process holds a listener. */
const asNobody =
  process.platform === 'linux' && process.getuid?.() === 0 && fs.existsSync('/usr/bin/setpriv') && fs.existsSync('out/adapter/inventory/ports-linux.js');

describe.skipIf(!asNobody)('listLinuxSockets without root', () => {
  it("leaves other users' sockets without a pid, and says why", async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as net.AddressInfo).port;
    try {
      const script = `import('${path.resolve('out/adapter/inventory/ports-linux.js')}').then(async (m) => console.log(JSON.stringify(await m.listLinuxSockets({ all: false }))))`;
      const child = spawn('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      await once(child, 'exit');
      const { value, notes } = JSON.parse(out) as { value: Array<{ port: number; pid?: number }>; notes: string[] };
      const mine = value.find((s) => s.port === port);
      expect(mine).toBeDefined();
      expect(mine!.pid).toBeUndefined();
      expect(notes.join('\n')).toMatch(/pid and program unknown for \d+ sockets?: they belong to processes of other users .* only root can read/);
    } finally {
      server.close();
    }
  });
});
