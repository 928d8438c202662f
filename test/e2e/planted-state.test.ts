/**
 * Another local user who can write the app folder cannot plant state the server then trusts: an
 * OAuth state file with an approved client and a token of theirs, or a token file of their own.
 * The real CLI server, a real request with the planted token. Files of another user can only be
 * made by root (this machine and CI run the tests as root).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../main/auth/secrets.js';
import { childEnv, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const NOBODY = 65534;
const asRoot = process.platform !== 'win32' && process.getuid?.() === 0;
const PLANTED_TOKEN = 'cmcp_at_planted-by-another-user-0123456789';

describe.runIf(asRoot)('state planted by another user', () => {
  const dirs: string[] = [];
  const children: Array<{ kill(): void }> = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  /** A home whose app folder anyone can write, holding a file of another user's. */
  function plant(name: string, content: string): { home: string; appDir: string } {
    const home = makeTempDir('planted-');
    dirs.push(home);
    const appDir = path.join(home, '.config', 'chatgpt-mcp');
    fs.mkdirSync(appDir, { recursive: true });
    fs.chmodSync(appDir, 0o777);
    const file = path.join(appDir, name);
    fs.writeFileSync(file, content);
    fs.chmodSync(file, 0o666);
    fs.chownSync(file, NOBODY, NOBODY);
    return { home, appDir };
  }

  it('an approved client and token in an oauth.json of another user get no access, and the folder is closed to others', async () => {
    const now = Date.now();
    const client = {
      id: 'cmcp_client_planted',
      name: 'planted',
      redirectUris: ['https://evil.example/cb'],
      source: 'registration',
      registeredAt: now,
      approvedAt: now,
      lastUsedAt: null,
    };
    const { home, appDir } = plant(
      'oauth.json',
      JSON.stringify({
        version: 1,
        clients: [client],
        pending: [],
        codes: [],
        tokens: [
          {
            hash: hashSecret(PLANTED_TOKEN),
            kind: 'access',
            clientId: client.id,
            family: 'f',
            resource: 'http://127.0.0.1/mcp',
            scope: 'mcp',
            expiresAt: now + 3_600_000,
            usedAt: null,
          },
        ],
      }),
    );
    const config = path.join(home, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ server: { auth: 'oauth' } }));
    const run = await runCli(['serve', '--http', '--port', '0', '--config', config], childEnv(home));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the OAuth state file .* belongs to another user \(uid 65534\), so it is not trusted: delete it/);
    expect(run.stderr).toContain('could be written by other users (mode 777); they no longer can');
    expect(fs.statSync(appDir).mode & 0o022).toBe(0);
    // Nothing listened, so the planted token was never accepted; a server of this folder started after the file is gone accepts nothing planted.
    fs.rmSync(path.join(appDir, 'oauth.json'));
    const server = await startCliHttp(['--config', config], childEnv(home));
    children.push(server.child);
    const reply = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${PLANTED_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(reply.status).toBe(401);
  });

  it('a token file of another user stops the server, saying what to do', async () => {
    const { home } = plant('token', 'token-of-another-user-0123456789\n');
    const run = await runCli(['serve', '--http', '--port', '0'], childEnv(home));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the token file .* belongs to another user \(uid 65534\), so it is not trusted: delete it/);
  });
});
