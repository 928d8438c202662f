/**
 * Linux sockets from /proc/net/{tcp,tcp6,udp,udp6}; whose they are from the socket inodes in
 * /proc/<pid>/fd. Only root can look into another user's /proc/<pid>/fd, so without root their
 * sockets have no pid, and the notes say so.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import type { Noted, SocketEntry, SocketProtocol, SocketQuery } from '../contract/inventory.js';
import { mapLimit } from '../process/map-limit.js';
import { addressText, wordBytes } from './proc-address.js';

const TABLES: ReadonlyArray<{ file: string; protocol: SocketProtocol; family: 4 | 6 }> = [
  { file: 'tcp', protocol: 'tcp', family: 4 },
  { file: 'tcp6', protocol: 'tcp', family: 6 },
  { file: 'udp', protocol: 'udp', family: 4 },
  { file: 'udp6', protocol: 'udp', family: 6 },
];

const TCP_STATES = ['', 'ESTABLISHED', 'SYN_SENT', 'SYN_RECV', 'FIN_WAIT1', 'FIN_WAIT2', 'TIME_WAIT', 'CLOSE', 'CLOSE_WAIT', 'LAST_ACK', 'LISTEN', 'CLOSING'];
const TCP_LISTEN = 0x0a;
const UDP_UNCONNECTED = 0x07;

export interface ProcSocket extends Omit<SocketEntry, 'pid' | 'program'> {
  inode: number;
  uid: number;
}

/** One /proc/net table: "sl local_address rem_address st ... uid timeout inode ...". */
export function parseProcNet(text: string, protocol: SocketProtocol, family: 4 | 6, littleEndian?: boolean): ProcSocket[] {
  const sockets: ProcSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const [local, remote, st] = [f[1] as string, f[2] as string, parseInt(f[3] as string, 16)];
    const [laddr, lport] = local.split(':') as [string, string];
    const [raddr, rport] = remote.split(':') as [string, string];
    const remotePort = parseInt(rport, 16);
    const listening = protocol === 'tcp' ? st === TCP_LISTEN : st === UDP_UNCONNECTED && remotePort === 0;
    const state = protocol === 'tcp' ? (TCP_STATES[st] ?? `0x${f[3]}`) : remotePort === 0 ? 'BOUND' : 'CONNECTED';
    sockets.push({
      protocol,
      family,
      address: addressText(wordBytes(laddr, littleEndian)),
      port: parseInt(lport, 16),
      state,
      listening,
      ...(listening ? {} : { remoteAddress: addressText(wordBytes(raddr, littleEndian)), remotePort }),
      uid: Number(f[7]),
      inode: Number(f[9]),
    });
  }
  return sockets;
}

export async function listLinuxSockets(query: SocketQuery, proc = '/proc'): Promise<Noted<SocketEntry[]>> {
  const tables = await Promise.all(
    TABLES.map(async (t) => parseProcNet(await readFile(`${proc}/net/${t.file}`, 'utf8').catch(() => ''), t.protocol, t.family)),
  );
  const wanted = tables.flat().filter((s) => query.all || s.listening);
  const owners = await socketOwners(new Set(wanted.map((s) => s.inode).filter((i) => i > 0)), proc);
  const sockets = wanted.map(({ inode, ...s }): SocketEntry => {
    const owner = owners.byInode.get(inode);
    return owner ? { ...s, pid: owner.pid, program: owner.program } : s;
  });
  const unknown = sockets.filter((s) => s.pid === undefined).length;
  const notes = [];
  if (unknown > 0 && owners.unreadable > 0) {
    notes.push(
      `pid and program unknown for ${unknown} socket${unknown === 1 ? '' : 's'}: they belong to processes of other users (${owners.unreadable} processes), whose open files only root can read`,
    );
  } else if (unknown > 0) {
    notes.push(`pid and program unknown for ${unknown} socket${unknown === 1 ? '' : 's'}: no process here holds them (another namespace, or closing)`);
  }
  return { value: sockets, notes };
}

interface Owner {
  pid: number;
  program: string;
}

/** Which process holds each socket inode: a walk of /proc/<pid>/fd links ("socket:[1234]"). */
async function socketOwners(inodes: ReadonlySet<number>, proc: string): Promise<{ byInode: Map<number, Owner>; unreadable: number }> {
  const byInode = new Map<number, Owner>();
  let unreadable = 0;
  if (inodes.size === 0) return { byInode, unreadable };
  const pids = (await readdir(proc)).filter((name) => /^\d+$/.test(name));
  await mapLimit(pids, 16, async (pid) => {
    let fds: string[];
    try {
      fds = await readdir(`${proc}/${pid}/fd`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EACCES') unreadable++;
      return;
    }
    const held: number[] = [];
    for (const fd of fds) {
      const link = await readlink(`${proc}/${pid}/fd/${fd}`).catch(() => '');
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match && inodes.has(Number(match[1]))) held.push(Number(match[1]));
    }
    if (held.length === 0) return;
    const program = (await readFile(`${proc}/${pid}/comm`, 'utf8').catch(() => '')).trim();
    // A socket shared by a parent and its children (a forking server) is shown with the lowest pid.
    for (const inode of held) if (!byInode.has(inode) || byInode.get(inode)!.pid > Number(pid)) byInode.set(inode, { pid: Number(pid), program });
  });
  return { byInode, unreadable };
}
