/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, preferred by the
 * MCP authorization spec): a client whose client_id is an https URL is described by the JSON
 * document at that URL. Fetching a URL a stranger chose is a server-side request, so it is
 * fenced: https only, no redirects, a public address only (resolved once, then connected to
 * that very address, so DNS cannot swap in an internal one), 5 s, 5 KiB, and the document
 * must name itself and use no shared secret.
 */
import dns from 'node:dns/promises';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import * as z from 'zod';
import { redirectUriProblem } from './client-registration.js';

export const MAX_DOCUMENT_BYTES = 5 * 1024;
const TIMEOUT_MS = 5_000;

export interface MetadataFetchOptions {
  /** Extra CA certificates (tests use a self-signed one); the system's are always trusted. */
  ca?: string;
  /** Which resolved addresses may be contacted; default: public unicast only. */
  addressAllowed?: (address: string) => boolean;
}

export interface ClientDocument {
  clientId: string;
  name: string | undefined;
  redirectUris: string[];
}

export class ClientDocumentError extends Error {
  override name = 'ClientDocumentError';
}

/** True when client_id is meant as a metadata document URL: https with a path. */
export function isDocumentClientId(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === 'https:' && url.pathname !== '/' && url.pathname !== '';
  } catch {
    return false;
  }
}

const documentSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().max(200).optional(),
    redirect_uris: z.array(z.string()).min(1).max(10),
    token_endpoint_auth_method: z.string().optional(),
  })
  .loose();

export async function fetchClientDocument(clientId: string, options: MetadataFetchOptions = {}): Promise<ClientDocument> {
  const url = new URL(clientId);
  if (url.protocol !== 'https:' || url.username || url.password || url.hash)
    throw new ClientDocumentError('the client_id URL must be https without credentials or fragment');
  const address = await publicAddress(url.hostname.replace(/^\[|\]$/g, ''), options.addressAllowed ?? isPublicAddress);
  const text = await get(url, address, options.ca);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ClientDocumentError('the client metadata document is not JSON');
  }
  const result = documentSchema.safeParse(parsed);
  if (!result.success) throw new ClientDocumentError(`the client metadata document is invalid at ${result.error.issues[0]!.path.join('.') || 'top level'}`);
  const doc = result.data;
  if (doc.client_id !== clientId) throw new ClientDocumentError('the client metadata document names another client_id');
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new ClientDocumentError(`token_endpoint_auth_method "${method.slice(0, 40)}" is not supported: clients here are public (none)`);
  for (const uri of doc.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new ClientDocumentError(`redirect URI ${JSON.stringify(uri.slice(0, 100))} ${problem}`);
  }
  return { clientId, name: doc.client_name, redirectUris: doc.redirect_uris };
}

async function publicAddress(hostname: string, allowed: (address: string) => boolean): Promise<{ address: string; family: number }> {
  const found = net.isIP(hostname) ? [{ address: hostname, family: net.isIP(hostname) }] : await dns.lookup(hostname, { all: true }).catch(() => []);
  if (found.length === 0) throw new ClientDocumentError(`cannot resolve ${hostname}`);
  // Every address must be allowed: a name that also resolves inside the network is refused.
  if (found.some((entry) => !allowed(entry.address))) throw new ClientDocumentError(`${hostname} resolves to an address that is not public`);
  return found.find((entry) => entry.family === 4) ?? found[0]!;
}

function get(url: URL, target: { address: string; family: number }, ca: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeout: TIMEOUT_MS,
        // Connect to the address that was checked, whatever DNS says now; TLS still verifies the name.
        lookup: ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          opts.all ? callback(null, [target]) : callback(null, target.address, target.family)) as unknown as https.RequestOptions['lookup'],
        servername: net.isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
        ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}),
        agent: false,
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new ClientDocumentError(`the client metadata document answered HTTP ${response.statusCode} (redirects are not followed)`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_DOCUMENT_BYTES) {
            request.destroy();
            reject(new ClientDocumentError(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES} bytes`));
          } else chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', () => reject(new ClientDocumentError('the client metadata document could not be read')));
      },
    );
    request.on('timeout', () => request.destroy(new ClientDocumentError('the client metadata document did not arrive within 5 s')));
    request.on('error', (error) =>
      reject(
        error instanceof ClientDocumentError
          ? error
          : new ClientDocumentError(`cannot fetch the client metadata document (${(error as NodeJS.ErrnoException).code ?? error.name})`),
      ),
    );
    request.end();
  });
}

/** Public unicast only: no loopback, private, link-local, CGNAT, multicast, documentation or reserved ranges. */
export function isPublicAddress(address: string): boolean {
  if (net.isIPv4(address)) return !BLOCKED_V4.check(address, 'ipv4');
  // BlockList matches an IPv4-mapped address in any spelling (::ffff:7f00:1, what the URL parser
  // makes of [::ffff:127.0.0.1]) against the IPv4 rules.
  if (net.isIPv6(address)) return !BLOCKED_V4.check(address, 'ipv6') && !BLOCKED_V6.check(address, 'ipv6');
  return false;
}

const BLOCKED_V4 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['192.88.99.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED_V4.addSubnet(prefix, bits, 'ipv4');

const BLOCKED_V6 = new net.BlockList();
for (const [prefix, bits] of [
  // Unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['::', 96],
  ['64:ff9b::', 96],
  // Local-use NAT64 (RFC 8215), 6to4 (it embeds an IPv4 address), site-local, and the IETF protocol
  // block (Teredo, ORCHID and the like): none is a public server's own address.
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['fec0::', 10],
  ['2001::', 23],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED_V6.addSubnet(prefix, bits, 'ipv6');
