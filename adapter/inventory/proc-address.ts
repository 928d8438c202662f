/**
 * Addresses as the Linux kernel prints them in /proc/net: hexadecimal, each 32-bit word in the
 * host's byte order (/proc/net/tcp, /proc/net/route), or bytes in network order
 * (/proc/net/ipv6_route).
 */
import os from 'node:os';

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** The bytes of an address printed as 32-bit words in host order. */
export function wordBytes(hex: string, littleEndian = LITTLE_ENDIAN): number[] {
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = [0, 2, 4, 6].map((i) => parseInt(hex.slice(w + i, w + i + 2), 16));
    bytes.push(...(littleEndian ? word.reverse() : word));
  }
  return bytes;
}

/** The bytes of an address printed in network order. */
export function plainBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  return bytes;
}

/** 4 bytes as dotted IPv4, 16 as compressed IPv6 (an IPv4-mapped one as ::ffff:a.b.c.d). */
export function addressText(bytes: readonly number[]): string {
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  // The WHATWG URL parser writes the canonical compressed form (RFC 5952).
  return new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1);
}
