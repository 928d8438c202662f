/**
 * What the computer stands on, read only: its sockets, filesystems, network interfaces and the
 * server's own environment. Per-OS sources differ; a field the OS does not tell is left out and
 * the answer's `notes` say why, so a model never reads a guess.
 *
 * For an adapter author: every call only reads. `environment` answers values for the names it is
 * given and nothing else: the policy chose them, and no other value may cross the seam.
 */

export type SocketProtocol = 'tcp' | 'udp';

export interface SocketEntry {
  protocol: SocketProtocol;
  family: 4 | 6;
  address: string;
  port: number;
  /** TCP: LISTEN, ESTABLISHED, TIME_WAIT...; UDP: BOUND (no peer) or CONNECTED. */
  state: string;
  /** TCP LISTEN, or a UDP socket with no peer (it takes datagrams from anyone). */
  listening: boolean;
  remoteAddress?: string;
  remotePort?: number;
  /** Left out when the OS did not say whose it is (another user's process without root). */
  pid?: number;
  program?: string;
  /** The user owning the socket, where the OS says (Linux). */
  uid?: number;
}

export interface SocketQuery {
  /** Every socket, not only the listening ones. */
  all: boolean;
}

export interface DiskEntry {
  device: string;
  mountPoint: string;
  /** The filesystem type; left out where the OS source does not print it (df -kP). */
  type?: string;
  /** proc, sysfs, tmpfs, overlay-free kernel and memory filesystems: no disk behind them. */
  pseudo: boolean;
  readOnly?: boolean;
  totalBytes?: number;
  usedBytes?: number;
  /** Free for an unprivileged user (what a write can use). */
  availableBytes?: number;
  /** Why the sizes are missing (the filesystem did not answer in time, not allowed...). */
  error?: string;
}

export interface InterfaceAddress {
  address: string;
  family: 4 | 6;
  /** address/prefix, e.g. 192.168.1.20/24. */
  cidr: string | null;
}

export interface NetworkInterfaceEntry {
  name: string;
  internal: boolean;
  mac?: string;
  addresses: InterfaceAddress[];
}

export interface DefaultRoute {
  family: 4 | 6;
  gateway: string;
  interface: string;
}

export interface NetworkSummary {
  interfaces: NetworkInterfaceEntry[];
  /** Left out where this OS's routing table is not read. */
  defaultRoutes?: DefaultRoute[];
  /** Left out where there is no /etc/resolv.conf. */
  dnsServers?: string[];
}

export interface FoundProgram {
  name: string;
  path: string;
  /** Read from its install's files or its path, never by running it; absent when they do not say. */
  version?: string;
}

export interface EnvironmentSummary {
  platform: string;
  arch: string;
  release: string;
  /** The OS's own name for itself (os.version(): "#1 SMP ...", "Windows 11 Pro", "Darwin Kernel ..."). */
  osVersion: string;
  nodeVersion: string;
  /** Every variable name of the server's environment, sorted. */
  names: string[];
  /** The values of the names asked for that are set. */
  values: Record<string, string>;
  /** Login shells the OS lists (/etc/shells); left out where it lists none. */
  shells?: string[];
  /** Well-known language runtimes and tools found on the server's PATH (not run: no versions). */
  programs: FoundProgram[];
}

/** Each answer carries notes: what is unknown on this OS or to this user, and why. */
export interface Noted<T> {
  value: T;
  notes: string[];
}

export interface InventoryOps {
  listSockets(query: SocketQuery): Promise<Noted<SocketEntry[]>>;
  listDisks(): Promise<Noted<DiskEntry[]>>;
  networkSummary(): Promise<Noted<NetworkSummary>>;
  environmentSummary(valuesOf: readonly string[]): Promise<Noted<EnvironmentSummary>>;
}
