/**
 * What kind of network address an IP is, and whether a download may connect to it: only public
 * unicast addresses may. Pure (no DNS, no sockets): the caller resolves a name, asks here about
 * every address it got, and connects to the one it asked about (so a second lookup cannot swap
 * it), again on every redirect.
 *
 * Addresses are parsed here rather than trusted to a platform's parser, because the dangerous
 * spellings are the odd ones: IPv4 in hex, octal, or fewer than four parts (`0x7f.1`, `0177.0.0.1`,
 * `2130706433`, as inet_aton and URL parsers accept them), and IPv4 hidden in IPv6 (mapped
 * `::ffff:127.0.0.1`, compatible `::127.0.0.1`, NAT64 `64:ff9b::7f00:1`, 6to4 `2002:7f00:1::`),
 * each judged as the IPv4 address it reaches. Anything that is not an address is refused.
 */

export type AddressClass = 'public' | RefusedClass;
type RefusedClass =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  | 'tunnel'
  | 'invalid';

export interface AddressVerdict {
  allowed: boolean;
  class: AddressClass;
  /** The address in canonical form (IPv4 dotted, IPv6 lower-case full groups), or the input when invalid. */
  address: string;
  /** For a refusal: why, in words for the model. */
  reason?: string;
}

/** Cloud instance metadata services (AWS, GCP, Azure, Alibaba, Oracle, AWS ECS task metadata). */
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192']);
const METADATA_V6 = new Set(['fd00:ec2:0:0:0:0:0:254']);

/** [first address, prefix length, class], most specific first where ranges nest. */
const V4_RANGES: ReadonlyArray<[string, number, RefusedClass]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'tunnel'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const REASON: Record<RefusedClass, string> = {
  metadata: 'a cloud metadata service',
  loopback: 'this computer (loopback)',
  private: 'a private network',
  'link-local': 'a link-local address',
  shared: 'carrier-grade NAT space (RFC 6598)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  documentation: 'a documentation range',
  reserved: 'a reserved range',
  tunnel: 'a tunnel relay range',
  invalid: 'not an IP address',
};

export function classifyAddress(input: string): AddressVerdict {
  const text = input.trim().replace(/^\[(.*)\]$/, '$1');
  const v4 = parseIpv4(text);
  if (v4 !== null) return verdictV4(v4);
  const v6 = parseIpv6(text);
  if (v6 !== null) return verdictV6(v6);
  return refuse('invalid', input);
}

function verdictV4(value: number): AddressVerdict {
  const address = formatV4(value);
  if (METADATA_V4.has(address)) return refuse('metadata', address);
  for (const [first, bits, kind] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === parseIpv4(first)) return refuse(kind, address);
  }
  return { allowed: true, class: 'public', address };
}

function verdictV6(groups: number[]): AddressVerdict {
  const address = groups.map((g) => g.toString(16)).join(':');
  const g = (i: number) => groups[i]!;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  const low32 = ((g(6) << 16) >>> 0) + g(7);
  if (METADATA_V6.has(address)) return refuse('metadata', address);
  if (zeros(0, 8)) return refuse('unspecified', address);
  if (zeros(0, 7) && g(7) === 1) return refuse('loopback', address);
  // IPv4 inside IPv6 reaches that IPv4 address: mapped, compatible, NAT64 well-known prefix, 6to4.
  if (zeros(0, 5) && (g(5) === 0xffff || g(5) === 0)) return within(verdictV4(low32), address);
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return within(verdictV4(low32), address);
  if (g(0) === 0x2002) return within(verdictV4(((g(1) << 16) >>> 0) + g(2)), address);
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return refuse('private', address);
  if (g(0) === 0x2001 && g(1) === 0) return refuse('tunnel', address); // Teredo: its peer is encoded, not checkable here
  if (g(0) === 0x2001 && g(1) === 0xdb8) return refuse('documentation', address);
  if (g(0) === 0x100 && zeros(1, 4)) return refuse('reserved', address); // discard-only
  if ((g(0) & 0xfe00) === 0xfc00) return refuse('private', address);
  if ((g(0) & 0xffc0) === 0xfe80) return refuse('link-local', address);
  if ((g(0) & 0xffc0) === 0xfec0) return refuse('private', address); // site-local, deprecated
  if ((g(0) & 0xff00) === 0xff00) return refuse('multicast', address);
  if ((g(0) & 0xe000) !== 0x2000) return refuse('reserved', address); // only 2000::/3 is global unicast
  return { allowed: true, class: 'public', address };
}

/** An IPv4 verdict carried by an IPv6 address: refused as that IPv4 address is, named by both. */
function within(inner: AddressVerdict, address: string): AddressVerdict {
  if (inner.allowed) return { ...inner, address };
  return { ...inner, address, reason: `${address} reaches ${inner.address}, ${REASON[inner.class as RefusedClass]}` };
}

function refuse(kind: RefusedClass, address: string): AddressVerdict {
  return { allowed: false, class: kind, address, reason: `${address} is ${REASON[kind]}` };
}

/** inet_aton's forms: 1 to 4 parts, each decimal, 0x hex or 0-leading octal; the last part fills the remaining bytes. */
export function parseIpv4(text: string): number | null {
  if (!/^[0-9a-fA-FxX.]+$/.test(text)) return null;
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = /^0[xX][0-9a-fA-F]*$/.test(part)
      ? parseInt(part.slice(2) || '0', 16)
      : /^0[0-7]*$/.test(part)
        ? parseInt(part, 8)
        : /^[1-9][0-9]*$/.test(part)
          ? Number(part)
          : NaN;
    if (!Number.isFinite(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 2 ** (8 * (4 - values.length))) return null;
  return values.reduce((sum, v, i) => sum + v * 2 ** (8 * (3 - i)), 0) + last;
}

/** Eight 16-bit groups, with `::`, an embedded dotted IPv4 tail and a zone (`%eth0`, ignored). */
export function parseIpv6(text: string): number[] | null {
  const bare = text.replace(/%[^%]+$/, '');
  if (!/^[0-9a-fA-F:.]+$/.test(bare) || !bare.includes(':')) return null;
  const halves = bare.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (const [i, part] of parts.entries()) {
      if (part.includes('.')) {
        if (i !== parts.length - 1 || !/^\d{1,3}(\.\d{1,3}){3}$/.test(part)) return null;
        const v4 = part.split('.').map(Number);
        if (v4.some((n) => n > 255)) return null;
        out.push((v4[0]! << 8) + v4[1]!, (v4[2]! << 8) + v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 2 && halves[1]!.includes('.') === false && halves[0]!.includes('.')) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function formatV4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}
