/**
 * mcp-remote (npm), a real third-party OAuth client that does discovery, registration, PKCE
 * and the token exchange itself, bridging stdio to this server on loopback. The test plays
 * the person: its "browser" is a stand-in opener that records the URL mcp-remote opens, then
 * the test follows the authorize page like a browser, approves as the owner (the tray's
 * function), and delivers the redirect to mcp-remote's own callback server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listConnections, revokeClient } from '../../main/auth/owner-actions.js';
import { oauthStatePath } from '../../main/auth/oauth-state.js';
import type { ToolCallEvent } from '../../main/mcp/server.js';
import { authorizeInBrowser, ownerApproves } from '../helpers/oauth.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

/** Keep in step with the pre-fetch in .ci/run: npx caches by this exact list. */
export const MCP_REMOTE_PACKAGES = ['node@22.23.3', 'mcp-remote@0.15.1'] as const;

/** Finds (or installs into the npx cache) mcp-remote with Node 22 beside it. */
function installMcpRemote(): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['-y', ...MCP_REMOTE_PACKAGES.flatMap((p) => ['-p', p]), '-c', 'command -v mcp-remote'];
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const bin = out.trim().split('\n').at(-1);
      if (code === 0 && bin) resolve(path.dirname(bin));
      else reject(new Error(`npx could not provide mcp-remote (exit ${code}); is the npm registry reachable?\n${err.slice(-800)}`));
    });
  });
}

async function waitFor<T>(what: string, probe: () => T | null | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mcp-remote through OAuth', () => {
  let dir: string;
  let stateFile: string;
  let server: TestHttpServer;
  let binDir: string;
  let clock = Date.now();
  const events: ToolCallEvent[] = [];

  beforeAll(async () => {
    dir = makeTempDir('oauth-mcp-remote-');
    stateFile = oauthStatePath(path.join(dir, 'app'));
    binDir = await installMcpRemote();
    server = await startTestServer({ server: { auth: 'oauth' } }, { observer: (e) => void events.push(e), oauth: { stateFile, now: () => clock } });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    removeDir(dir);
  });

  it('connects after the owner approves, lists and calls tools, refreshes, and loses access on revocation', async () => {
    // The stand-in browser opener: records the URL instead of starting a browser.
    const shims = path.join(dir, 'shims');
    const opened = path.join(dir, 'opened-urls');
    fs.mkdirSync(shims);
    const opener = path.join(shims, 'xdg-open');
    fs.writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    let stderr = '';
    const transport = new StdioClientTransport({
      command: path.join(binDir, 'mcp-remote'),
      args: [server.url, '--debug'],
      env: {
        PATH: `${binDir}${path.delimiter}${shims}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: home,
        MCP_REMOTE_CONFIG_DIR: path.join(home, '.mcp-auth'),
        BROWSER: opener,
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'through-mcp-remote', version: '1.0.0' });
    const connecting = client.connect(transport);
    // Awaited below; a failure before that must not surface as an unhandled rejection.
    connecting.catch(() => undefined);

    try {
      // mcp-remote registers and prints (and "opens") the authorization URL.
      const url = await waitFor('the authorization URL', () => /Please authorize this client by visiting:\s*(\S+)/.exec(stderr)?.[1]);
      expect(new URL(url).pathname).toBe('/oauth/authorize');
      const outcome = await authorizeInBrowser(url, ownerApproves(stateFile));
      expect(['localhost', '127.0.0.1']).toContain(outcome.redirect.hostname);
      expect(outcome.redirect.searchParams.get('code')).toMatch(/^cmcp_ac_/);
      // The browser lands on mcp-remote's callback server, which then exchanges the code. That
      // server starts only once the URL is out (mcp-remote 0.15 starts it on demand), and a quick
      // stand-in browser can get there first: wait until it listens, as a person would not notice.
      await waitFor('mcp-remote callback server', () => stderr.includes(`OAuth callback server running at http://127.0.0.1:${outcome.redirect.port}`));
      const landed = await fetch(outcome.redirect);
      expect(landed.status).toBe(200);
      await connecting;

      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('system.info');
      const info = (await client.callTool({ name: 'system.info', arguments: {} })) as { isError?: boolean };
      expect(info.isError).toBeFalsy();
      const clients = listConnections(stateFile).clients;
      expect(clients).toHaveLength(1);
      expect(events.filter((e) => e.phase === 'end').at(-1)?.client).toBe(clients[0]!.name);

      // An hour on, the access token is refused; mcp-remote refreshes with its refresh token and the call goes through.
      clock += 61 * 60_000;
      const before = JSON.stringify(fs.readFileSync(stateFile, 'utf8'));
      const later = (await client.callTool({ name: 'system.info', arguments: {} })) as { isError?: boolean };
      expect(later.isError).toBeFalsy();
      expect(JSON.stringify(fs.readFileSync(stateFile, 'utf8'))).not.toBe(before);
      const rotated = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { tokens: Array<{ kind: string; usedAt: number | null }> };
      expect(rotated.tokens.filter((t) => t.kind === 'refresh' && t.usedAt !== null)).toHaveLength(1);

      // Revoked on this computer: the next call gets 401, and mcp-remote has to ask for a new authorization.
      await revokeClient(stateFile, clients[0]!.id);
      const refusedBefore = server.logLines.filter((l) => l.includes('request refused')).length;
      const asked = (stderr.match(/Please authorize this client/g) ?? []).length;
      const after = client.callTool({ name: 'system.info', arguments: {} }, undefined, { timeout: 20_000 });
      after.catch(() => undefined);
      await waitFor('a refusal after revocation', () => server.logLines.filter((l) => l.includes('request refused')).length > refusedBefore);
      await waitFor('a new authorization request', () => (stderr.match(/Please authorize this client/g) ?? []).length > asked);
      expect(listConnections(stateFile).clients.filter((c) => c.approvedAt !== null)).toHaveLength(0);
    } finally {
      await client.close().catch(() => undefined);
    }
  }, 120_000);
});
