/**
 * The origin OAuth names itself by (issuer; the resource is <origin>/mcp): server.publicUrl;
 * else the one public host in server.allowedHosts, over https (tunnels terminate TLS); else,
 * for clients on this computer, the loopback URL the server listens on.
 */
import { isLoopbackHost, publicHostnames } from '../mcp/http-guards.js';

export type OriginChoice = { origin: string } | { error: string };

export function publicOrigin(server: { host: string; allowedHosts: readonly string[]; publicUrl: string }, port: number): OriginChoice {
  if (server.publicUrl) return { origin: new URL(server.publicUrl).origin };
  const hosts = publicHostnames(server);
  if (hosts.length === 1) return { origin: `https://${hosts[0]}` };
  if (hosts.length > 1) {
    return {
      error: `OAuth needs one public URL, and server.allowedHosts names several public hosts (${hosts.join(', ')}): set server.publicUrl to the tunnel's https URL.`,
    };
  }
  if (!isLoopbackHost(server.host)) {
    return { error: `OAuth on ${server.host} needs server.publicUrl: the https URL clients reach this server at.` };
  }
  const host = server.host.includes(':') && !server.host.startsWith('[') ? `[${server.host}]` : server.host;
  return { origin: `http://${host}:${port}` };
}
