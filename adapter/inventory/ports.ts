/** The sockets of this computer, from each OS's own source (ports-linux, -darwin, -windows). */
import type { Noted, SocketEntry, SocketQuery } from '../contract/inventory.js';
import { system32 } from '../os/system-root.js';
import { listWindowsProcesses } from '../process/list-windows.js';
import { runOsTool } from '../services/os-tool.js';
import { listDarwinSockets } from './ports-darwin.js';
import { listLinuxSockets } from './ports-linux.js';
import { parseNetstat } from './ports-windows.js';

export async function listSockets(query: SocketQuery, platform: NodeJS.Platform = process.platform): Promise<Noted<SocketEntry[]>> {
  if (platform === 'linux') return listLinuxSockets(query);
  if (platform === 'darwin') return listDarwinSockets(query);
  if (platform === 'win32') return listWindowsSockets(query);
  return { value: [], notes: [`sockets are not read on ${platform}`] };
}

async function listWindowsSockets(query: SocketQuery): Promise<Noted<SocketEntry[]>> {
  const [netstat, processes] = await Promise.all([
    runOsTool(system32('netstat.exe'), ['-ano'], { operation: 'system.ports', timeoutMs: 20_000 }),
    listWindowsProcesses().catch(() => []),
  ]);
  const names = new Map(processes.map((p) => [p.pid, p.command]));
  const sockets = parseNetstat(netstat.stdout)
    .filter((s) => query.all || s.listening)
    .map((s) => (s.pid !== undefined && names.has(s.pid) ? { ...s, program: names.get(s.pid) } : s));
  return { value: sockets, notes: processes.length ? [] : ['program names unknown: the process list could not be read'] };
}
