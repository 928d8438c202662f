/**
 * The random values of the authorization server and how they are kept: every token, code and
 * consent handle is 256 random bits, handed out once and stored only as its SHA-256 hash, so
 * a copy of the state file lets nobody in. The short user code is for a person to compare.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export type SecretKind = 'access' | 'refresh' | 'code' | 'consent';

/** Prefixes make a leaked value recognisable (and findable by secret scanners). */
const PREFIX: Record<SecretKind, string> = { access: 'cmcp_at_', refresh: 'cmcp_rt_', code: 'cmcp_ac_', consent: 'cmcp_cr_' };

export function newSecret(kind: SecretKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function newClientId(): string {
  return 'cmcp_client_' + randomBytes(16).toString('base64url');
}

/** RFC 7636: 43 to 128 characters of [A-Za-z0-9-._~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is a base64url SHA-256: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** PKCE S256: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !S256_CHALLENGE.test(challenge)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** No vowels (no words), no 0/O or 1/I: easy to read aloud and compare. */
const CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ23456789';

/** A short code like "KD7F-M2QP" shown on the authorize page and on this computer. */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The canonical form of a typed user code (any case, dash or spaces optional), or null. */
export function normalizeUserCode(input: string): string | null {
  const bare = input.toUpperCase().replace(/[\s-]/g, '');
  if (bare.length !== 8 || [...bare].some((c) => !CODE_ALPHABET.includes(c))) return null;
  return `${bare.slice(0, 4)}-${bare.slice(4)}`;
}
