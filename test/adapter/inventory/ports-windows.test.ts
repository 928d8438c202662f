/** Windows sockets: netstat -ano output as documented, English and German (translated states). */
import { describe, expect, it } from 'vitest';
import { parseNetstat } from '../../../adapter/inventory/ports-windows.js';

const ENGLISH = `
Active Connections

  Proto  Local Address          Foreign Address        State           PID
  TCP    0.0.0.0:135            0.0.0.0:0              LISTENING       1028
  TCP    127.0.0.1:3210         127.0.0.1:50123        ESTABLISHED     4242
  TCP    [::]:445               [::]:0                 LISTENING       4
  UDP    0.0.0.0:5353           *:*                                    2468
  UDP    [fe80::1%12]:1900      *:*                                    3016
`;
const GERMAN = `
Aktive Verbindungen

  Proto  Lokale Adresse         Remoteadresse          Status           PID
  TCP    0.0.0.0:135            0.0.0.0:0              ABHÖREN         1028
`;

describe('parseNetstat', () => {
  it('reads TCP and UDP, v4 and v6, with pids', () => {
    const sockets = parseNetstat(ENGLISH.replace(/\n/g, '\r\n'));
    expect(sockets.map((s) => [s.protocol, s.family, s.address, s.port, s.state, s.listening, s.pid])).toEqual([
      ['tcp', 4, '0.0.0.0', 135, 'LISTEN', true, 1028],
      ['tcp', 4, '127.0.0.1', 3210, 'ESTABLISHED', false, 4242],
      ['tcp', 6, '::', 445, 'LISTEN', true, 4],
      ['udp', 4, '0.0.0.0', 5353, 'BOUND', true, 2468],
      ['udp', 6, 'fe80::1%12', 1900, 'BOUND', true, 3016],
    ]);
    expect(sockets[1]).toMatchObject({ remoteAddress: '127.0.0.1', remotePort: 50123 });
  });

  it('tells a listener by its foreign port 0, whatever the language', () => {
    expect(parseNetstat(GERMAN)).toEqual([{ protocol: 'tcp', family: 4, address: '0.0.0.0', port: 135, state: 'LISTEN', listening: true, pid: 1028 }]);
  });
});
