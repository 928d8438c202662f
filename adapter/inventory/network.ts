/**
 * Interfaces and addresses (os.networkInterfaces), the default routes from /proc/net/route and
 * /proc/net/ipv6_route on Linux, and the DNS servers of /etc/resolv.conf where there is one.
 * Nothing is sent on the network.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { DefaultRoute, NetworkInterfaceEntry, NetworkSummary, Noted } from '../contract/inventory.js';
import { addressText, plainBytes, wordBytes } from './proc-address.js';

export async function networkSummary(platform: NodeJS.Platform = process.platform): Promise<Noted<NetworkSummary>> {
  const notes: string[] = [];
  const summary: NetworkSummary = { interfaces: interfaces(os.networkInterfaces()) };
  if (platform === 'linux') {
    const [v4, v6] = await Promise.all([readFile('/proc/net/route', 'utf8').catch(() => ''), readFile('/proc/net/ipv6_route', 'utf8').catch(() => '')]);
    summary.defaultRoutes = [...parseRoute(v4), ...parseIpv6Route(v6)];
  } else {
    notes.push(`default route unknown: the routing table is read on Linux only`);
  }
  const resolv = await readFile('/etc/resolv.conf', 'utf8').catch(() => null);
  if (resolv !== null) summary.dnsServers = parseResolvConf(resolv);
  else notes.push('DNS servers unknown: no /etc/resolv.conf');
  if (platform === 'darwin' && resolv !== null) notes.push('macOS: /etc/resolv.conf shows the primary resolvers only (scutil --dns has per-domain ones)');
  return { value: summary, notes };
}

function interfaces(found: NodeJS.Dict<os.NetworkInterfaceInfo[]>): NetworkInterfaceEntry[] {
  return Object.entries(found).map(([name, infos = []]) => {
    const mac = infos.find((i) => i.mac && i.mac !== '00:00:00:00:00:00')?.mac;
    return {
      name,
      internal: infos.every((i) => i.internal),
      ...(mac ? { mac } : {}),
      addresses: infos.map((i) => ({ address: i.address, family: i.family === 'IPv6' ? 6 : 4, cidr: i.cidr })),
    };
  });
}

/** /proc/net/route: "Iface Destination Gateway Flags ... Mask"; default is destination and mask 0. */
export function parseRoute(text: string, littleEndian?: boolean): DefaultRoute[] {
  const routes: DefaultRoute[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8 || f[1] !== '00000000' || f[7] !== '00000000') continue;
    routes.push({ family: 4, gateway: addressText(wordBytes(f[2] as string, littleEndian)), interface: f[0] as string });
  }
  return routes;
}

/** /proc/net/ipv6_route: "dest destlen src srclen nexthop metric refcnt use flags iface", bytes in network order. */
export function parseIpv6Route(text: string): DefaultRoute[] {
  const routes: DefaultRoute[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !/^0{32}$/.test(f[0] as string) || f[1] !== '00' || /^0{32}$/.test(f[4] as string)) continue;
    routes.push({ family: 6, gateway: addressText(plainBytes(f[4] as string)), interface: f[9] as string });
  }
  return routes;
}

export function parseResolvConf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1])
    .filter((s): s is string => s !== undefined);
}
