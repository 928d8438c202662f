/**
 * One URL's body, with the caller's rules on every hop (contract: adapter/contract/net.ts).
 *
 * The host is resolved here once per hop and the socket's `lookup` answers with the vetted
 * address only, so a name cannot resolve to something else between the check and the connect
 * (DNS rebinding); TLS still verifies the certificate against the host name. Node's http client
 * reads no proxy variables, keeps no cookies, and with `agent: false` reuses no connection.
 * The body is asked for as identity and kept as sent: nothing is decompressed.
 */
import { createHash } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { adapterError } from '../contract/errors.js';
import type { FetchedBody, FetchOptions } from '../contract/net.js';
import { sniffBody } from './sniff-body.js';

const op = 'fs.download';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HEADERS = { 'user-agent': 'chatgpt-computer-mcp', accept: '*/*', 'accept-encoding': 'identity' };

export async function fetchBody(first: string, options: FetchOptions): Promise<FetchedBody> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const redirects: string[] = [];
  let stalled: Error | undefined;
  const onStall = (error: Error) => (stalled = error);
  let url = options.nextUrl(first);
  try {
    for (;;) {
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const found = isIP(host) ? [{ address: host }] : await withSignal(dns.promises.lookup(host, { all: true, verbatim: true }), signal);
      const address = options.pickAddress(
        url,
        found.map((a) => a.address),
      );
      const response = await send(url, address, { stallMs: options.stallMs, onStall }, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        response.destroy();
        const location = response.headers.location;
        if (!location) throw adapterError('OS_ERROR', op, `${url.href} answered HTTP ${status} without a Location`);
        if (redirects.length >= options.maxRedirects)
          throw adapterError(
            'PATH_NOT_ALLOWED',
            op,
            `${first} redirects more than ${options.maxRedirects} times; downloads follow at most ${options.maxRedirects}`,
          );
        url = options.nextUrl(location, url);
        redirects.push(url.href);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw adapterError(status === 404 || status === 410 ? 'NOT_FOUND' : 'OS_ERROR', op, `${url.href} answered HTTP ${status}; only a 2xx answer is saved`);
      }
      const data = await readBody(response, url, options.maxBytes);
      const contentType = response.headers['content-type']?.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 200);
      return {
        data,
        sha256: createHash('sha256').update(data).digest('hex'),
        finalUrl: url.href,
        redirects,
        status,
        ...(contentType ? { contentType } : {}),
        sniffed: sniffBody(data),
      };
    }
  } catch (error) {
    if (timeout.aborted) throw adapterError('TIMEOUT', op, `${url.href} took longer than ${options.timeoutMs} ms (download.timeoutMs); nothing was saved`);
    if (options.signal?.aborted) throw adapterError('TIMEOUT', op, 'the download was cancelled; nothing was saved');
    if (stalled) throw adapterError('TIMEOUT', op, stalled.message);
    if ((error as { operation?: unknown }).operation === op) throw error;
    throw adapterError('OS_ERROR', op, `${url.href}: ${(error as Error).message}`);
  }
}

/** The response to one GET, connected to `address` only. */
function send(url: URL, address: string, stall: { stallMs: number; onStall(error: Error): void }, signal: AbortSignal): Promise<http.IncomingMessage> {
  const family = isIP(address) === 6 ? 6 : 4;
  const lookup = ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: 'GET', headers: HEADERS, agent: false, lookup, signal }, resolve);
    request.setTimeout(stall.stallMs, () => {
      const error = new Error(`${url.href} sent nothing for ${stall.stallMs} ms (download.stallMs); nothing was saved`);
      stall.onStall(error);
      request.destroy(error);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The whole body, or an error as soon as it passes `maxBytes` (by its Content-Length or by counting). */
async function readBody(response: http.IncomingMessage, url: URL, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = (size: string) => adapterError('OUTPUT_LIMIT', op, `${url.href} is ${size}, over download.maxBytes (${maxBytes} bytes); nothing was saved`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(`${declared} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw tooLarge(`more than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  if (!response.complete) throw adapterError('OS_ERROR', op, `${url.href} ended before the whole body arrived; nothing was saved`);
  return Buffer.concat(chunks, total);
}

function withSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
