/**
 * Windows sockets from `netstat -ano` (System32, no PowerShell start-up). The state words are
 * translated on non-English Windows, so a listening TCP socket is told by its foreign address
 * (port 0), not by "LISTENING". netstat prints pids, not programs: the caller names them from the
 * process list.
 */
import type { SocketEntry } from '../contract/inventory.js';
import { hostPort } from './endpoint.js';

export function parseNetstat(text: string): SocketEntry[] {
  const sockets: SocketEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    const protocol = f[0]?.toLowerCase();
    if (protocol !== 'tcp' && protocol !== 'udp') continue;
    const tcp = protocol === 'tcp';
    if (f.length !== (tcp ? 5 : 4)) continue;
    const local = hostPort(f[1] as string);
    const foreign = f[2] as string;
    const remote = foreign === '*:*' ? undefined : hostPort(foreign);
    const listening = remote === undefined || remote.port === 0;
    const pid = Number(f[f.length - 1]);
    sockets.push({
      protocol,
      family: local.family,
      address: local.address,
      port: local.port,
      state: tcp ? (listening ? 'LISTEN' : (f[3] as string)) : listening ? 'BOUND' : 'CONNECTED',
      listening,
      ...(listening || !remote ? {} : { remoteAddress: remote.address, remotePort: remote.port }),
      ...(Number.isInteger(pid) ? { pid } : {}),
    });
  }
  return sockets;
}
