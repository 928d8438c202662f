/**
 * Which URLs fs.download may fetch and which addresses it may connect to. Pure (no DNS, no
 * sockets, no Node imports: the config schema uses it): the adapter resolves a host, asks
 * `pickAddress` about every address it got and connects to the one it was given, for the first
 * URL and for every redirect, each of which goes through `downloadUrl` again.
 *
 * Rules: https:// only (http:// too when download.allowHttp); no user name or password in any
 * URL (nothing is ever sent as a credential); at most MAX_DOWNLOAD_URL characters; cloud
 * metadata names refused by name; every address a host resolves to must be public
 * (address-class.ts), so a name answering one public and one private address is refused.
 * The one exception is download.testLoopbackOrigin, an exact loopback origin for tests.
 */
import { adapterError } from '../../adapter/contract/errors.js';
import { classifyAddress } from './address-class.js';

const op = 'fs.download';
export const MAX_DOWNLOAD_URL = 4096;
export const MAX_REDIRECTS = 5;

/** Names of cloud metadata services that resolve only inside the cloud (the addresses are refused anyway). */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

export interface DownloadRules {
  allowHttp: boolean;
  testLoopbackOrigin?: string | undefined;
}

const ALLOWED = 'downloads fetch public https:// URLs only';

/** The caller's URL, or a redirect's Location read against the URL that sent it; throws when refused. */
export function downloadUrl(raw: string, rules: DownloadRules, base?: URL): URL {
  const what = base ? `the redirect from ${base.href}` : 'the URL';
  if (raw.length > MAX_DOWNLOAD_URL) throw adapterError('INVALID_INPUT', op, `${what} is ${raw.length} characters long; at most ${MAX_DOWNLOAD_URL}`);
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw adapterError('INVALID_INPUT', op, `${what} is not a URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.href.length > MAX_DOWNLOAD_URL) throw adapterError('INVALID_INPUT', op, `${what} is longer than ${MAX_DOWNLOAD_URL} characters`);
  const test = isTestOrigin(url, rules);
  if (url.protocol === 'http:' && !rules.allowHttp && !test)
    throw refused(`${what} is http:// (${url.host}); ${ALLOWED} (the owner can allow http:// with download.allowHttp)`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refused(`${what} has the scheme ${url.protocol}; ${ALLOWED}`);
  if (url.username || url.password) throw refused(`${what} carries a user name or password; downloads never send credentials`);
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) throw refused(`${url.hostname} is a cloud metadata service; ${ALLOWED}`);
  return url;
}

/** The address to connect to, of those the URL's host resolved to: refused unless every one is public. */
export function pickAddress(url: URL, addresses: readonly string[], rules: DownloadRules): string {
  if (addresses.length === 0) throw adapterError('NOT_FOUND', op, `${url.hostname} has no address`);
  const test = isTestOrigin(url, rules);
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (verdict.allowed || (test && verdict.class === 'loopback')) continue;
    throw refused(`${url.host}: ${verdict.reason}; ${ALLOWED} on public internet addresses`);
  }
  return addresses[0]!;
}

function isTestOrigin(url: URL, rules: DownloadRules): boolean {
  return rules.testLoopbackOrigin !== undefined && url.origin === new URL(rules.testLoopbackOrigin).origin;
}

/** Why a download.testLoopbackOrigin value is unusable, or undefined. */
export function loopbackOriginProblem(value: string): string | undefined {
  const example = 'expected an origin like "https://127.0.0.1:8443"';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return example;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${example}: https:// or http://`;
  if (url.origin !== value.replace(/\/$/, '') || !url.port) return `${example}: scheme, loopback address and port, nothing else`;
  if (classifyAddress(url.hostname).class !== 'loopback') return `${example}: the host must be a loopback address (127.x.x.x or [::1]), not a name`;
  return undefined;
}

function refused(message: string) {
  return adapterError('PATH_NOT_ALLOWED', op, message, { reason: 'download' });
}
