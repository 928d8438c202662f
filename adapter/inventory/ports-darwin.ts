/**
 * macOS sockets from lsof's field output (-F: one field a line, a letter first), which is stable
 * where its columns are not. TCP and UDP are two calls: lsof applies -sTCP:LISTEN to the whole
 * selection, so `-iTCP -sTCP:LISTEN -iUDP` drops every UDP socket. Without root lsof shows only
 * this user's processes.
 */
import type { Noted, SocketEntry, SocketProtocol, SocketQuery } from '../contract/inventory.js';
import { hostPort } from './endpoint.js';
import { runOsTool } from '../services/os-tool.js';

export const LSOF = '/usr/sbin/lsof';

export function lsofQueries(query: SocketQuery): string[][] {
  return [
    ['-nP', '-iTCP', ...(query.all ? [] : ['-sTCP:LISTEN']), '-F', 'pcPnT'],
    ['-nP', '-iUDP', '-F', 'pcPnT'],
  ];
}

export async function listDarwinSockets(query: SocketQuery): Promise<Noted<SocketEntry[]>> {
  const outputs = await Promise.all(
    // lsof exits 1 when it found nothing: an empty list, not a failure.
    lsofQueries(query).map((args) => runOsTool(LSOF, args, { operation: 'system.ports', timeoutMs: 20_000 }).then((r) => r.stdout)),
  );
  const sockets = outputs.flatMap((out) => parseLsofFields(out)).filter((s) => query.all || s.listening);
  const root = process.getuid?.() === 0;
  return { value: sockets, notes: root ? [] : ["only this user's processes are listed: lsof sees other users' sockets only as root"] };
}

/** `lsof -F pcPnT`: p<pid>, c<command>, then per file P<protocol>, n<name>, T<ST=state>... */
export function parseLsofFields(text: string): SocketEntry[] {
  const sockets: SocketEntry[] = [];
  let pid = 0;
  let program = '';
  let current: SocketEntry | null = null;
  for (const line of text.split('\n')) {
    const [tag, value] = [line[0], line.slice(1)];
    if (tag === 'p') [pid, current] = [Number(value), null];
    else if (tag === 'c') program = value;
    else if (tag === 'P') current = null;
    if (tag === 'P' && (value === 'TCP' || value === 'UDP')) current = { protocol: value.toLowerCase() as SocketProtocol } as SocketEntry;
    if (!current) continue;
    if (tag === 'n') {
      Object.assign(current, endpoints(value), { pid, program });
      const udp = current.protocol === 'udp';
      Object.assign(
        current,
        udp ? { state: current.remoteAddress ? 'CONNECTED' : 'BOUND', listening: !current.remoteAddress } : { state: '', listening: false },
      );
      sockets.push(current);
    } else if (tag === 'T' && value.startsWith('ST=') && current.protocol === 'tcp') {
      current.state = value.slice(3);
      current.listening = current.state === 'LISTEN';
    }
  }
  return sockets;
}

/** "127.0.0.1:80", "*:5353", "[::1]:8080", "[fe80::1%lo0]:5353", "a:1->b:2". */
function endpoints(name: string): Pick<SocketEntry, 'address' | 'port' | 'family' | 'remoteAddress' | 'remotePort'> {
  const [local, remote] = name.split('->') as [string, string | undefined];
  const l = hostPort(local);
  const r = remote ? hostPort(remote) : undefined;
  return { ...l, ...(r ? { remoteAddress: r.address, remotePort: r.port } : {}) };
}
