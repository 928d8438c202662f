/**
 * The HTTP boundary's decisions as pure functions: which bind addresses are allowed, which
 * Host and Origin headers are accepted (DNS-rebinding defence), and the bearer check.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { AuthMode } from '../config/schema.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  const bare = h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (net.isIPv6(bare)) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

/** Why a bind address is refused, or null when it is fine. */
export function bindRefusal(server: {
  host: string;
  allowNonLoopback: boolean;
  auth: AuthMode;
}): { message: string; reason: 'not-loopback' | 'open-beyond-loopback' } | null {
  if (isLoopbackHost(server.host)) return null;
  if (!server.allowNonLoopback) {
    const message = `Refusing to listen on ${server.host}: it is not a loopback address. Set server.allowNonLoopback to true to expose the server beyond this computer, or use 127.0.0.1 with a tunnel.`;
    return { message, reason: 'not-loopback' };
  }
  if (server.auth === 'none') {
    const message = `Refusing to listen on ${server.host} with server.auth "none": beyond loopback a credential is required (server.auth "bearer", the default).`;
    return { message, reason: 'open-beyond-loopback' };
  }
  return null;
}

/** The allowedHosts entries and the publicUrl host that are not loopback: names a tunnel serves publicly. */
export function publicHostnames(server: { allowedHosts: readonly string[]; publicUrl: string }): string[] {
  const names = server.allowedHosts.map((entry) => hostnameOf(entry)).filter((name): name is string => name !== null);
  if (server.publicUrl) names.push(new URL(server.publicUrl).hostname.toLowerCase());
  return [...new Set(names.filter((name) => !isLoopbackHost(name)))];
}

/**
 * Why a server reachable through a public tunnel host is refused, or null. A public host with
 * server.auth "none" would hand the computer to anyone who learns the URL.
 */
export function tunnelRefusal(server: {
  allowedHosts: readonly string[];
  publicUrl: string;
  auth: AuthMode;
}): { message: string; reason: 'open-tunnel' } | null {
  const hosts = publicHostnames(server);
  if (hosts.length === 0 || server.auth !== 'none') return null;
  const message =
    `Refusing to start: ${hosts.join(', ')} (server.allowedHosts / server.publicUrl) is a public tunnel host, and server.auth is "none". ` +
    'Through a tunnel a credential is required: server.auth "oauth" (ChatGPT connectors), "bearer" (the OpenAI tunnel client) or "bearer+oauth".';
  return { message, reason: 'open-tunnel' };
}

/** A port a URL can hold (65536 made the URL the SDK builds from the Host header throw: a 500). */
function isPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) <= 65535;
}

/** The hostname part of a Host header, lower-cased, IPv6 kept in brackets. */
export function hostnameOf(hostHeader: string): string | null {
  const value = hostHeader.trim().toLowerCase();
  if (!value) return null;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest && !isPort(rest.slice(1))) return null;
    return value.slice(0, end + 1);
  }
  const [name, port, extra] = value.split(':');
  if (extra !== undefined || (port !== undefined && !isPort(port))) return null;
  if (!name || !/^[a-z0-9.-]+$/.test(name)) return null;
  return name;
}

function bracketed(host: string): string {
  return net.isIPv6(host) ? `[${host.toLowerCase()}]` : host.toLowerCase();
}

export function allowedHostnames(bindHost: string, extra: readonly string[], publicUrl = ''): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (bindHost !== '0.0.0.0' && bindHost !== '::') names.add(bracketed(bindHost));
  if (publicUrl) names.add(new URL(publicUrl).hostname.toLowerCase());
  for (const entry of extra) {
    const name = hostnameOf(entry);
    if (name) names.add(name);
  }
  return names;
}

/**
 * The allowed Host names a refusal may list: this computer's own. A DNS-rebinding page is same-origin
 * with the refusal and can read it, and the tunnel's public name is what keeps strangers out.
 */
export function hostsToShow(hosts: ReadonlySet<string>): string {
  const shown = [...hosts].filter(isLoopbackHost);
  const others = hosts.size - shown.length;
  return others === 0 ? shown.join(', ') : `${shown.join(', ')} and ${others} set in server.allowedHosts or server.publicUrl, not listed here`;
}

export function allowedOrigins(port: number, extra: readonly string[]): Set<string> {
  const origins = new Set([`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]);
  for (const entry of extra) {
    const origin = normalizeOrigin(entry);
    if (origin) origins.add(origin);
  }
  return origins;
}

export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** A present Origin must match exactly (scheme, host and port); "null" never passes. */
export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  return normalized !== null && allowed.has(normalized);
}

/** Constant-time comparison of the presented bearer token with the configured one. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  const presented = match?.[1] ?? '';
  // Hash both sides so the comparison does not leak the token's length through timing.
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}
