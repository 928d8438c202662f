/**
 * Dynamic client registration (RFC 7591) input checks. Only public clients using the
 * authorization code grant with PKCE exist here: no client secrets are issued, whatever a
 * client asks for. Redirect URIs are kept verbatim and later matched exactly.
 */
import net from 'node:net';
import * as z from 'zod';

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:', 'ftp:', 'ws:', 'wss:']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a redirect URI cannot be registered, or null: https, http only to loopback (RFC 8252), or an app's own scheme. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment (#)';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `uses the ${url.protocol} scheme, which cannot receive a code safely`;
  // 127.0.0.0/8 as an address: a name such as 127.example.com is anyone's.
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname) && !(net.isIPv4(url.hostname) && url.hostname.startsWith('127.')))
    return 'uses http:// to a host other than this computer (use https://)';
  if ((url.protocol === 'http:' || url.protocol === 'https:') && (url.username || url.password)) return 'must not contain a user name or password';
  return null;
}

export const registrationSchema = z
  .object({
    redirect_uris: z
      .array(z.string())
      .min(1, 'at least one redirect URI is required')
      .max(10, 'at most 10 redirect URIs')
      .superRefine((uris, ctx) => {
        uris.forEach((uri, i) => {
          const problem = redirectUriProblem(uri);
          if (problem) ctx.addIssue({ code: 'custom', path: [i], message: `redirect URI ${JSON.stringify(uri.slice(0, 100))} ${problem}` });
        });
      }),
    client_name: z.string().max(200).optional(),
    grant_types: z
      .array(z.string())
      .optional()
      .refine((g) => !g || (g.includes('authorization_code') && g.every((t) => t === 'authorization_code' || t === 'refresh_token')), {
        message: 'only the authorization_code and refresh_token grants are supported',
      }),
    response_types: z
      .array(z.string())
      .optional()
      .refine((r) => !r || (r.length > 0 && r.every((t) => t === 'code')), { message: 'only the "code" response type is supported' }),
    token_endpoint_auth_method: z.string().optional(),
    scope: z.string().max(500).optional(),
  })
  .loose();

export type RegistrationRequest = z.output<typeof registrationSchema>;

/** A name safe to show: no control or bidi characters, at most 60 characters, never empty. */
export function displayName(raw: string | undefined, fallbackHost: string): string {
  const clean = (raw ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return `Unnamed client (${fallbackHost})`;
  return clean.length > 60 ? `${clean.slice(0, 59)}…` : clean;
}
