/** The state file under concurrent writers: the server, the tray and the CLI are separate processes. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oauthStatePath, OAuthStateError, readState, updateState } from '../../main/auth/oauth-state.js';
import { REPO_ROOT } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const client = (id: string) => ({
  id,
  name: id,
  redirectUris: ['https://a.example/cb'],
  source: 'registration' as const,
  registeredAt: Date.now(),
  approvedAt: Date.now(),
  lastUsedAt: null,
});

let dir: string;
let file: string;
beforeEach(() => {
  dir = makeTempDir('oauth-state-');
  file = oauthStatePath(dir);
});
afterEach(() => removeDir(dir));

function writerProcess(prefix: string, count: number): Promise<number | null> {
  const module = path.join(REPO_ROOT, 'out/main/auth/oauth-state.js');
  const script = `
    const { updateState } = await import(${JSON.stringify(module)});
    for (let i = 0; i < ${count}; i++) await updateState(${JSON.stringify(file)}, (s) => { s.clients.push({ id: '${prefix}' + i, name: 'x', redirectUris: ['https://a.example/cb'], source: 'registration', registeredAt: Date.now(), approvedAt: Date.now(), lastUsedAt: null }); });
  `;
  return new Promise((resolve) => spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' }).on('exit', resolve));
}

describe('OAuth state file', () => {
  it('loses no change when two processes and this one write at once', async () => {
    const ours = Array.from({ length: 10 }, (_, i) => updateState(file, (s) => void s.clients.push(client(`here${i}`))));
    const codes = await Promise.all([writerProcess('a', 10), writerProcess('b', 10), ...ours]);
    expect(codes.slice(0, 2)).toEqual([0, 0]);
    expect(readState(file).clients).toHaveLength(30);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['oauth.json']);
  });

  it('writes nothing when the change throws', async () => {
    await updateState(file, (s) => void s.clients.push(client('kept')));
    await expect(
      updateState(file, (s) => {
        s.clients = [];
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(readState(file).clients.map((c) => c.id)).toEqual(['kept']);
  });

  it('refuses a damaged file instead of starting over', async () => {
    fs.writeFileSync(file, '{"version":1,"clients":"no"}');
    expect(() => readState(file)).toThrow(OAuthStateError);
    await expect(updateState(file, () => undefined)).rejects.toThrow(/delete it/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":1,"clients":"no"}');
  });

  it('takes over a lock left by a writer that died', async () => {
    const lock = path.join(dir, '.oauth.json.lock');
    fs.writeFileSync(lock, '999999\n');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    await updateState(file, (s) => void s.clients.push(client('after-crash')));
    expect(readState(file).clients).toHaveLength(1);
    expect(fs.existsSync(lock)).toBe(false);
  });
});
