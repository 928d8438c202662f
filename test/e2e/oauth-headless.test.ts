/**
 * The headless path: `chatgpt-mcp serve` as a child process with server.auth "oauth", the MCP
 * v2 client's OAuth provider connecting, and the owner approving with `chatgpt-mcp oauth
 * approve CODE` in another process (the code read from the authorize page, and from the
 * server's log). Then `oauth list` shows the client and `oauth revoke ID` cuts it off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN } from '../helpers/clients.js';
import { authorizeInBrowser, MemoryOAuthProvider } from '../helpers/oauth.js';
import { childEnv, runCli, startCliHttp } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';

describe('headless OAuth with the CLI', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let server: Awaited<ReturnType<typeof startCliHttp>>;

  beforeAll(async () => {
    home = makeTempDir('oauth-headless-');
    const config = writeJson(path.join(home, 'config.json'), { server: { auth: 'oauth' } });
    env = childEnv(home, { CHATGPT_MCP_CONFIG: config });
    server = await startCliHttp([], env);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await new Promise((r) => server?.child.once('exit', r));
    removeDir(home);
  });

  it('waits for "chatgpt-mcp oauth approve CODE", then lists and revokes the client', async () => {
    const provider = new MemoryOAuthProvider('http://127.0.0.1:1/callback', 'Headless test app');
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const probe = new Client({ name: 'headless', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await expect(probe.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    const outcome = await authorizeInBrowser(provider.authorizationUrl!, async (code) => {
      // The server's log tells the owner the same code and what asks.
      expect(server.stderr()).toContain(`"code":"${code}"`);
      expect(server.stderr()).toContain('Headless test app');
      // ... and both checks to make before approving: the code, and where the app returns to.
      expect(server.stderr()).toMatch(
        /only if you started this, its page shows this code and returnsTo is the app you are connecting.*"returnsTo":"127\.0\.0\.1:1"/,
      );
      const wrong = await runCli(['oauth', 'approve', 'BBBB-BBBB'], env);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain(`waiting now: ${code}`);
      const listed = await runCli(['oauth', 'list'], env);
      expect(listed.stdout).toMatch(new RegExp(`${code}\\s+"Headless test app" returning to 127\\.0\\.0\\.1:1`));
      const approved = await runCli(['oauth', 'approve', code.toLowerCase().replace('-', '')], env);
      expect(approved.code).toBe(0);
      expect(approved.stderr).toContain(`approved ${code}`);
    });
    await transport.finishAuth(outcome.redirect.searchParams);
    const client = new Client({ name: 'headless', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
    expect((await client.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
    await client.close();

    const stateFile = path.join(home, '.config', 'chatgpt-mcp', 'oauth.json');
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
    const list = await runCli(['oauth', 'list'], env);
    const id = /(cmcp_client_\S+)\s+"Headless test app"/.exec(list.stdout)?.[1];
    expect(id).toBeDefined();
    expect(list.stdout).toMatch(/approved 20\d\d-/);
    // The server (another process) recorded the calls above by the time they answered.
    expect(list.stdout).toMatch(/last used 20\d\d-/);

    const revoked = await runCli(['oauth', 'revoke', id!], env);
    expect(revoked.code).toBe(0);
    const after = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.tokens()!.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(after.status).toBe(401);
    expect((await runCli(['oauth', 'revoke', id!], env)).stderr).toMatch(/no OAuth client has the id/);
  });

  it('refuses to start with a public tunnel host and server.auth "none"', async () => {
    const config = writeJson(path.join(home, 'open.json'), { server: { auth: 'none', allowedHosts: ['calm-river.trycloudflare.com'] } });
    const run = await runCli(['serve', '--http', '--port', '0'], { ...env, CHATGPT_MCP_CONFIG: config });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/calm-river\.trycloudflare\.com .* is a public tunnel host, and server\.auth is "none"/);
  });

  it('explains unknown oauth commands and missing arguments', async () => {
    expect((await runCli(['oauth', 'approve'], env)).code).toBe(64);
    const unknown = await runCli(['oauth', 'grant', 'x'], env);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(/expected "oauth list", "oauth approve CODE"/);
  });
});
