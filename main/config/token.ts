/**
 * The bearer token: generated (256 random bits, URL-safe) and kept in `<app config dir>/token`,
 * mode 0600, created on the first HTTP start when the config names none. The tray app and the
 * headless server use the same file, so there is one token whichever started first; a token in
 * the config (server.token or CHATGPT_MCP_TOKEN) wins over it. Nothing else writes a token:
 * only `replaceToken` (`token rotate`, the window's Replace token) changes the one in use. It is
 * never printed into logs; `chatgpt-mcp token show` prints it on request.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { readOwnedFile } from './owned-state.js';
import { withoutByteOrderMark } from './byte-order-mark.js';
import { exposure, fileHoldsToken, ownedByOther } from './file-exposure.js';
import { validateConfig } from './save.js';
import { MIN_TOKEN_LENGTH, type Config } from './schema.js';
import { cliHint } from '../command-name.js';

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
  // Ours, but others could read it: the plain remedy is chmod 600 (as ssh says of a private key).
  // Another user's file is not ours to fix: the owned-state check says to delete it.
  const why = ownedByOther(file) ? null : exposure(file);
  if (why) throw new TokenFileError(`the token file ${file} must be yours alone, but ${why}: run "chmod 600 ${file}"`);
  let text: string | null;
  try {
    text = readOwnedFile(
      file,
      'the token file',
      true,
      `delete it and a new token is created at the next start (clients then need it: ${cliHint('token show')})`,
    );
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

export interface TokenPlace {
  /** The config file in use (it need not exist). */
  configFile: string;
  appDir: string;
  env: NodeJS.ProcessEnv;
}

/** Refused: the token is set where only the owner can change it (an environment variable). */
export class TokenReplaceError extends Error {
  override readonly name = 'TokenReplaceError';
}

/**
 * A new token where the one in use lives: CHATGPT_MCP_TOKEN cannot be changed from here; a
 * server.token in the config file is replaced in that file (the rest kept as written); else
 * the token file. Every client holding the old token gets 401 from the next start on.
 */
export async function replaceToken({ configFile, appDir, env }: TokenPlace): Promise<BearerToken> {
  if (env.CHATGPT_MCP_TOKEN) throw new TokenReplaceError('the token in use comes from CHATGPT_MCP_TOKEN: change that variable where it is set');
  if (!fileHoldsToken(configFile)) {
    const file = tokenFilePath(appDir);
    return { token: await rotateTokenFile(appDir), source: 'file', file };
  }
  const raw = JSON.parse(withoutByteOrderMark(fs.readFileSync(configFile, 'utf8'))) as { server: Record<string, unknown> };
  const token = generateToken();
  raw.server.token = token;
  const checked = validateConfig(raw);
  if (!checked.ok)
    throw new TokenReplaceError(
      `the config file ${configFile} is invalid (${checked.issues[0]?.path.join('.') ?? ''}: ${checked.issues[0]?.message ?? ''}); fix it first`,
    );
  await writeFileAtomic(fs.realpathSync(configFile), JSON.stringify(raw, null, 2) + '\n');
  return { token, source: 'config' };
}
