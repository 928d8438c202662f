/**
 * The secret values gateway entries refer to (`{"secret": "NAME"}` in env or bearerToken): in
 * the OS keyring (@napi-rs/keyring: macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux) under this app's service name, else in an owner-only file in the app folder,
 * as the tunnel's runtime key is kept (main/tunnel/secret-store.ts). Never in the config, never
 * logged; the values resolved are added to the secrets every answer and log line is scrubbed of.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { KEY_SERVICE, type KeyringEntry } from '../tunnel/secret-store.js';

export const SECRETS_FILE = 'gateway-secrets.json';
export const MAX_SECRET_CHARS = 16_384;

export type OpenEntry = (account: string) => Promise<KeyringEntry>;

export const openOsEntry: OpenEntry = async (account) => {
  const { Entry } = await import('@napi-rs/keyring');
  return new Entry(KEY_SERVICE, account, process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined);
};

export interface GatewaySecrets {
  /** For people: where values are kept. */
  readonly where: string;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
}

const account = (name: string) => `gateway:${name}`;

/** The keyring when it answers a read, else the owner-only file (values already in the file stay found). */
export async function gatewaySecrets(appDir: string, open: OpenEntry = openOsEntry): Promise<GatewaySecrets> {
  const file = fileSecrets(path.join(appDir, SECRETS_FILE));
  try {
    (await open(account('probe'))).getPassword();
  } catch {
    return file;
  }
  return {
    where: 'the OS keyring',
    get: async (name) => (await open(account(name))).getPassword() ?? (await file.get(name)),
    set: async (name, value) => (await open(account(name))).setPassword(checked(value)),
    delete: async (name) => ((await open(account(name))).deletePassword() ? true : file.delete(name)),
  };
}

/** Which of these names hold a value (asked one by one; no value leaves the store). */
export async function storedNames(store: GatewaySecrets, names: readonly string[]): Promise<string[]> {
  const stored: string[] = [];
  for (const name of names) if ((await store.get(name)) !== null) stored.push(name);
  return stored;
}

function checked(value: string): string {
  if (value === '') throw new Error('the secret is empty');
  if (value.length > MAX_SECRET_CHARS) throw new Error(`the secret is longer than ${MAX_SECRET_CHARS} characters`);
  return value;
}

function fileSecrets(file: string): GatewaySecrets {
  const read = (): Record<string, string> => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return {};
    }
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0)
      throw new Error(`the secrets file ${file} can be read by other users; run "chmod 600 ${file}"`);
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  };
  return {
    where: `an owner-only file (${file}), because no OS keyring answered`,
    get: async (name) => read()[name] ?? null,
    set: async (name, value) => writeFileAtomic(file, JSON.stringify({ ...read(), [name]: checked(value) }, null, 2) + '\n'),
    async delete(name) {
      const all = read();
      if (!(name in all)) return false;
      delete all[name];
      await writeFileAtomic(file, JSON.stringify(all, null, 2) + '\n');
      return true;
    },
  };
}
