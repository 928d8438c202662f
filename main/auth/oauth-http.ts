/**
 * The HTTP plumbing the OAuth endpoints share: reading a request (bounded body, one-valued
 * parameters, a Basic client id) and building a reply (JSON, a page, a redirect, 405, 429 with
 * Retry-After). Endpoints return a Reply; authorization-server.ts writes it.
 */
import type http from 'node:http';
import { messagePage, PAGE_HEADERS } from './consent-page.js';
import { LIMITS } from './oauth-limits.js';
import type { RateLimiter } from './rate-limit.js';

export type Reply = { status: number; headers: Record<string, string>; body: string };

/** One value of a parameter; a repeated parameter counts as absent-and-invalid (RFC 6749 §3.1). */
export function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

export function query(req: http.IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at >= 0 ? url.slice(at + 1) : '');
}

export function basicClientId(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  try {
    return decodeURIComponent(decoded.split(':')[0] ?? '') || undefined;
  } catch {
    // A malformed %-escape (%zz) names no client: refused like any unknown one, not a 500.
    return undefined;
  }
}

class BodyTooLarge extends Error {}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > LIMITS.maxBodyBytes) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function bodyProblem(error: unknown, expected: string): string {
  return error instanceof BodyTooLarge ? `The body is larger than ${LIMITS.maxBodyBytes} bytes.` : `Expected ${expected}.`;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function html(status: number, body: string): Reply {
  return { status, headers: { ...PAGE_HEADERS }, body };
}

export function notAllowed(allow: string): Reply {
  return {
    ...json(405, { error: 'invalid_request', error_description: `Method not allowed; use ${allow}.` }),
    headers: { 'content-type': 'application/json', allow },
  };
}

/** What was refused, the limit and whom it counts, and when to try again. */
export function limitText(limiter: RateLimiter, what: string, scope: string): string {
  return `${what} (${limiter.limit} a minute, ${scope}); try again in ${limiter.retryAfterSeconds()} s.`;
}

export function tooMany(limiter: RateLimiter, message: string, page = false): Reply {
  const headers = { 'retry-after': String(limiter.retryAfterSeconds()) };
  if (page) return { status: 429, headers: { ...PAGE_HEADERS, ...headers }, body: messagePage('Too many attempts', message) };
  return json(429, { error: 'temporarily_unavailable', error_description: message }, headers);
}

export function redirect(target: string, params: Record<string, string | null>): Reply {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return { status: 303, headers: { location: url.href, 'cache-control': 'no-store' }, body: '' };
}
