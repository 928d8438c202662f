/**
 * The bearer token: generated (256 random bits, URL-safe), and for the headless server kept in
 * `<app config dir>/token`, mode 0600, created on the first HTTP start when the config names
 * none. It is never printed into logs; `chatgpt-mcp token show` prints it on request.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { readOwnedFile } from './owned-state.js';
import { MIN_TOKEN_LENGTH, type Config } from './schema.js';

export const TOKEN_FILE_NAME = 'token';

/** The token file is there but cannot be used, or cannot be created: the HTTP server does not start. */
export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenFilePath(appDir: string): string {
  return path.join(appDir, TOKEN_FILE_NAME);
}

export interface BearerToken {
  token: string;
  /** Where it came from, for the start log and `token show` (never the value). */
  source: 'config' | 'file';
  /** The token file, when that is the source. */
  file?: string;
  /** True when this call created the file. */
  created?: boolean;
}

/**
 * The token HTTP clients must send, or null when bearer tokens are not accepted. A token in the
 * config (server.token or CHATGPT_MCP_TOKEN) wins; otherwise the token file is read, or created.
 */
export async function ensureBearerToken(config: Readonly<Config>, appDir: string): Promise<BearerToken | null> {
  const existing = existingBearerToken(config, appDir);
  if (existing !== 'to-create') return existing;
  const file = tokenFilePath(appDir);
  const token = generateToken();
  try {
    await writeFileAtomic(file, token + '\n');
  } catch (error) {
    throw new TokenFileError(`cannot create the token file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  return { token, source: 'file', file, created: true };
}

/**
 * The token as it stands, without creating anything (`config check` asks this too): null when
 * bearer tokens are not accepted, "to-create" when the token file does not exist yet. Throws
 * when the token file is there but cannot be used, which stops the HTTP server from starting.
 */
export function existingBearerToken(config: Readonly<Config>, appDir: string): BearerToken | 'to-create' | null {
  if (!acceptsBearer(config)) return null;
  if (config.server.token) return { token: config.server.token, source: 'config' };
  const file = tokenFilePath(appDir);
  const existing = readTokenFile(file);
  return existing ? { token: existing, source: 'file', file } : 'to-create';
}

export function acceptsBearer(config: Readonly<Config>): boolean {
  return config.server.auth === 'bearer' || config.server.auth === 'bearer+oauth';
}

/** The token in the file, or null when there is none; a file that is not a usable token is an error. */
export function readTokenFile(file: string): string | null {
  let text: string | null;
  try {
    text = readOwnedFile(file, 'the token file', true, 'delete it and a new token is created at the next start (clients then need it: chatgpt-mcp token show)');
  } catch (error) {
    throw new TokenFileError((error as Error).message, { cause: error });
  }
  if (text === null) return null;
  const token = text.trim();
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw new TokenFileError(`the token file ${file} does not hold a usable token; delete it and a new one is created at the next start`);
  }
  return token;
}

/** Replaces the token file with a fresh token (clients holding the old one get 401). */
export async function rotateTokenFile(appDir: string): Promise<string> {
  const token = generateToken();
  await writeFileAtomic(tokenFilePath(appDir), token + '\n');
  return token;
}
