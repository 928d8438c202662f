import { randomBytes } from 'node:crypto';

/** A new bearer token: 256 random bits, URL-safe (same as `chatgpt-mcp token`). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}
