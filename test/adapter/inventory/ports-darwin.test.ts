/** macOS sockets: lsof -F output (captured from lsof 4.95 with the listeners of ports-linux's test, and a macOS-shaped one). */
import { describe, expect, it } from 'vitest';
import { lsofQueries, parseLsofFields } from '../../../adapter/inventory/ports-darwin.js';

const TCP_LISTEN = `p31566
cnode
tIPv4
PTCP
n127.0.0.1:45123
TST=LISTEN
TQR=0
TQS=0
tIPv6
PTCP
n[::1]:45124
TST=LISTEN
TQR=0
TQS=0
p612
cControlCenter
PTCP
n*:7000
TST=LISTEN
`;
const UDP = `p31566
cnode
tIPv4
PUDP
n127.0.0.1:45125
tIPv6
PUDP
n*:45126
tIPv4
PUDP
n127.0.0.1:34433->127.0.0.1:45125
p401
cmDNSResponder
PUDP
n[fe80::1%lo0]:5353
`;

describe('parseLsofFields', () => {
  it('reads listening TCP sockets with pid and program', () => {
    expect(parseLsofFields(TCP_LISTEN)).toEqual([
      { protocol: 'tcp', family: 4, address: '127.0.0.1', port: 45123, state: 'LISTEN', listening: true, pid: 31566, program: 'node' },
      { protocol: 'tcp', family: 6, address: '::1', port: 45124, state: 'LISTEN', listening: true, pid: 31566, program: 'node' },
      { protocol: 'tcp', family: 4, address: '*', port: 7000, state: 'LISTEN', listening: true, pid: 612, program: 'ControlCenter' },
    ]);
  });

  it('takes UDP sockets without a peer as listening, scoped IPv6 included', () => {
    const sockets = parseLsofFields(UDP);
    expect(sockets.map((s) => [s.address, s.port, s.state, s.pid])).toEqual([
      ['127.0.0.1', 45125, 'BOUND', 31566],
      ['*', 45126, 'BOUND', 31566],
      ['127.0.0.1', 34433, 'CONNECTED', 31566],
      ['fe80::1%lo0', 5353, 'BOUND', 401],
    ]);
    expect(sockets[2]).toMatchObject({ listening: false, remoteAddress: '127.0.0.1', remotePort: 45125 });
  });

  it('asks TCP and UDP in two calls (one -sTCP:LISTEN call drops UDP)', () => {
    expect(lsofQueries({ all: false })).toEqual([
      ['-nP', '-iTCP', '-sTCP:LISTEN', '-F', 'pcPnT'],
      ['-nP', '-iUDP', '-F', 'pcPnT'],
    ]);
    expect(lsofQueries({ all: true })[0]).not.toContain('-sTCP:LISTEN');
  });
});
