/**
 * Where the runtime key is kept headless. On this machine no Secret Service is reachable (no
 * session bus), so the real @napi-rs/keyring probe fails and the owner-only file is used, with
 * a warning that says why. The file is refused when others could read it.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fileStore,
  headlessStore,
  keyFilePath,
  keyringStore,
  keyShapeDoubt,
  normalizeRuntimeKey,
  openOsKeyring,
  readKey,
  type KeyringEntry,
} from '../../main/tunnel/secret-store.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const KEY = 'sk-tunnel-runtime-0123456789abcdef';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('tunnel-key-');
});
afterEach(() => removeDir(dir));

describe('runtime key storage', () => {
  it('falls back to an owner-only file with a visible warning when the OS keyring is unreachable', async () => {
    // The real library, on a machine without a session keyring.
    let reachable = true;
    try {
      (await openOsKeyring()).getPassword();
    } catch {
      reachable = false;
    }
    const store = await headlessStore({ appDir: dir });
    if (reachable) {
      expect(store.warning).toBeNull();
      return;
    }
    expect(store.where).toBe(`an owner-only file (${keyFilePath(dir)})`);
    expect(store.warning).toMatch(
      /readable only by your user account, because no OS secret store is reachable \(.+\)\. Anyone who can act as your user can read it\./,
    );

    expect(await store.get()).toBeNull();
    await store.set(`  ${KEY}\n`);
    const file = keyFilePath(dir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${KEY}\n`);
    expect(await store.get()).toBe(KEY);
    // Nothing else in the folder holds it (no leftover temp files).
    expect(fs.readdirSync(dir)).toEqual(['tunnel-key']);
    expect(await store.delete()).toBe(true);
    expect(await store.delete()).toBe(false);
    expect(await store.get()).toBeNull();
  });

  it('refuses a key file other users can read, saying how to fix it', async () => {
    const store = fileStore(dir);
    await store.set(KEY);
    fs.chmodSync(keyFilePath(dir), 0o644);
    await expect(store.get()).rejects.toThrow(/can be read by other users; run "chmod 600 .*tunnel-key"/);
  });

  it('uses the OS keyring when it answers, and finds a key left in the file', async () => {
    const saved = new Map<string, string>();
    const entry: KeyringEntry = {
      getPassword: () => saved.get('k') ?? null,
      setPassword: (value) => void saved.set('k', value),
      deletePassword: () => saved.delete('k'),
    };
    const store = await headlessStore({ appDir: dir, openKeyring: async () => entry });
    expect(store.warning).toBeNull();
    expect(store.where).toBe(keyringStore(entry).where);
    await fileStore(dir).set(KEY);
    expect(await readKey([store, fileStore(dir)])).toMatchObject({ key: KEY, store: { where: expect.stringContaining('owner-only file') } });
    await store.set('sk-in-the-keyring-0123456789');
    expect((await readKey([store, fileStore(dir)]))?.key).toBe('sk-in-the-keyring-0123456789');
  });

  it('takes a pasted key without surrounding whitespace and refuses what cannot be one', () => {
    expect(normalizeRuntimeKey(`\t${KEY} \r\n`)).toBe(KEY);
    expect(() => normalizeRuntimeKey('   ')).toThrow(/empty/);
    expect(() => normalizeRuntimeKey('not a key')).toThrow(/not a runtime key: a key is one word of letters, digits/);
    expect(() => normalizeRuntimeKey('x'.repeat(513))).toThrow(/too long/);
    expect(() => normalizeRuntimeKey('sk-ü')).toThrow(/not a runtime key/);
    // The tunnel client's own rule: a dot is "malformed" to it, so it is refused here first.
    expect(() => normalizeRuntimeKey('sk-has.a.dot')).toThrow(/not a runtime key/);
  });

  it('says when a well-formed key does not look like an OpenAI API key', () => {
    expect(keyShapeDoubt('sk-secret-typed')).toBe('it is 15 characters long, and OpenAI API keys are longer');
    expect(keyShapeDoubt('tunnel-runtime-0123456789abcdef0123456789abcdef')).toBe('it does not begin with "sk-" as OpenAI API keys do');
    expect(keyShapeDoubt(`sk-proj-${'A1b2C3d4'.repeat(20)}`)).toBeNull();
    expect(keyShapeDoubt(`sk-${'a'.repeat(48)}`)).toBeNull();
  });
});
