/**
 * The tray app's place for the runtime key: Electron's safeStorage (macOS Keychain, Windows
 * DPAPI, the Linux Secret Service or KWallet) encrypts it, and the ciphertext is kept in the
 * app folder (owner-only, atomic). On Linux without a keyring Electron falls back to a fixed
 * key ("basic_text"), which protects nothing: then this store is not used, and the headless
 * stores (keyring, else the owner-only file with its warning) take over.
 */
import type { SafeStorage } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { normalizeRuntimeKey, type SecretStore } from '../tunnel/secret-store.js';

export const SAFE_KEY_FILE = 'tunnel-key.safe';

type SafeStorageApi = Pick<SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

/** The store, or null when safeStorage has no real OS secret behind it here. */
export async function safeStorageStore(safeStorage: SafeStorageApi, appDir: string, platform: NodeJS.Platform = process.platform): Promise<SecretStore | null> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return null;
  if (platform === 'linux' && ['basic_text', 'unknown'].includes(safeStorage.getSelectedStorageBackend())) return null;
  const file = path.join(appDir, SAFE_KEY_FILE);
  return {
    where:
      platform === 'darwin'
        ? 'the macOS Keychain (Electron safeStorage)'
        : platform === 'win32'
          ? 'Windows DPAPI (Electron safeStorage)'
          : 'the desktop keyring (Electron safeStorage)',
    warning: null,
    async get() {
      let sealed: Buffer;
      try {
        sealed = fs.readFileSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const { result } = await safeStorage.decryptStringAsync(sealed);
      return result || null;
    },
    async set(value) {
      await writeFileAtomic(file, await safeStorage.encryptStringAsync(normalizeRuntimeKey(value)));
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
