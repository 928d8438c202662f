/**
 * Where the tunnel's runtime key lives: a small seam with one implementation per place. The
 * tray app puts Electron's safeStorage first (main/tray/safe-storage-store.ts); headless, the OS
 * keyring through @napi-rs/keyring (macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux), else a file in the app folder readable only by the owner, with a warning
 * the owner sees. Never the JSON config, and nothing here logs or returns the key but get().
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';

export interface SecretStore {
  /** For people: where the key is kept. */
  readonly where: string;
  /** Set when this place is weaker than an OS secret store. */
  readonly warning: string | null;
  get(): Promise<string | null>;
  set(value: string): Promise<void>;
  /** True when there was something to delete. */
  delete(): Promise<boolean>;
}

export const KEY_SERVICE = 'chatgpt-mcp';
export const KEY_ACCOUNT = 'tunnel-runtime-key';
export const KEY_FILE_NAME = 'tunnel-key';

/**
 * A runtime key as pasted: surrounding whitespace dropped, then only letters, digits, "-" and
 * "_", the tunnel client's own rule (it refuses anything else as "malformed").
 */
export function normalizeRuntimeKey(input: string): string {
  const key = input.trim();
  if (!key) throw new Error('The runtime key is empty.');
  if (key.length > 512) throw new Error('That is too long for a runtime key (more than 512 characters).');
  if (!/^[0-9A-Za-z_-]+$/.test(key))
    throw new Error('That is not a runtime key: a key is one word of letters, digits, "-" and "_". Paste it again exactly as the OpenAI Platform shows it.');
  return key;
}

/** OpenAI API keys begin "sk-" (sk-proj-, sk-svcacct-, ...) and run to well over 40 characters. */
const MIN_KEY_LENGTH = 40;

/**
 * Why a well-formed key still does not look like an OpenAI API key, or null when it does. A
 * guess about a format OpenAI may change: only the tunnel's connection proves a key.
 */
export function keyShapeDoubt(key: string): string | null {
  if (!key.startsWith('sk-')) return 'it does not begin with "sk-" as OpenAI API keys do';
  if (key.length < MIN_KEY_LENGTH) return `it is ${key.length} characters long, and OpenAI API keys are longer`;
  return null;
}

// ---- owner-only file ------------------------------------------------------------------------

export function keyFilePath(appDir: string): string {
  return path.join(appDir, KEY_FILE_NAME);
}

export function fileStore(appDir: string, reason = 'no OS secret store is reachable'): SecretStore {
  const file = keyFilePath(appDir);
  return {
    where: `an owner-only file (${file})`,
    warning: `The runtime key is kept in ${file}, readable only by your user account, because ${reason}. Anyone who can act as your user can read it.`,
    async get() {
      let stat;
      try {
        stat = fs.statSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new Error(`Cannot read the runtime key file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, { cause: error });
      }
      // Like ssh with a private key: a file others can read is not used (and not trusted).
      if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
        throw new Error(`The runtime key file ${file} can be read by other users; run "chmod 600 ${file}" or store the key again.`);
      }
      if (process.platform !== 'win32' && typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
        throw new Error(`The runtime key file ${file} belongs to another user; store the key again.`);
      }
      const key = fs.readFileSync(file, 'utf8').trim();
      return key || null;
    },
    async set(value) {
      await writeFileAtomic(file, normalizeRuntimeKey(value) + '\n');
    },
    async delete() {
      try {
        fs.unlinkSync(file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}

// ---- OS keyring (@napi-rs/keyring) ----------------------------------------------------------

/** The part of @napi-rs/keyring's Entry this module uses. */
export interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}

export type OpenKeyring = () => Promise<KeyringEntry>;

/** The real keyring entry. On Linux only the Secret Service: the kernel keyring forgets at logout. */
export const openOsKeyring: OpenKeyring = async () => {
  const { Entry } = await import('@napi-rs/keyring');
  return new Entry(KEY_SERVICE, KEY_ACCOUNT, process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined);
};

const KEYRING_NAMES: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'the macOS Keychain',
  win32: 'the Windows Credential Manager',
  linux: 'the Secret Service keyring',
};

export function keyringStore(entry: KeyringEntry, platform: NodeJS.Platform = process.platform): SecretStore {
  return {
    where: KEYRING_NAMES[platform] ?? 'the OS keyring',
    warning: null,
    async get() {
      return entry.getPassword();
    },
    async set(value) {
      entry.setPassword(normalizeRuntimeKey(value));
    },
    async delete() {
      return entry.deletePassword();
    },
  };
}

export interface HeadlessStoreOptions {
  appDir: string;
  openKeyring?: OpenKeyring;
}

/**
 * The keyring when it answers (a read is the probe: no prompt, nothing written), else the
 * owner-only file with the reason in its warning. A key already in the file keeps being found
 * after a keyring appears: `readKey` looks in both.
 */
export async function headlessStore({ appDir, openKeyring = openOsKeyring }: HeadlessStoreOptions): Promise<SecretStore> {
  try {
    const entry = await openKeyring();
    entry.getPassword();
    return keyringStore(entry);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 160) : 'unknown error';
    return fileStore(appDir, `no OS secret store is reachable (${why})`);
  }
}

/** The first stored key among the places, and where it was found. */
export async function readKey(stores: readonly SecretStore[]): Promise<{ key: string; store: SecretStore } | null> {
  for (const store of stores) {
    const key = await store.get();
    if (key) return { key, store };
  }
  return null;
}
