/**
 * Profiles through real clients over real HTTP: two OAuth clients (registered, approved by the
 * owner, then bound to profiles in the config, as the owner does before a restart) and the static
 * token each get their own tools/list from the credential on each request, and a call outside a
 * caller's profile is refused naming the profile and what it allows. stdio has the active profile.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthStatePath } from '../../main/auth/oauth-state.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectModernHttp, connectModernStdio, MODERN, textOf } from '../helpers/clients.js';
import { authorizeInBrowser, MemoryOAuthProvider, ownerApproves } from '../helpers/oauth.js';
import { childEnv, startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { connectFront, FIXTURE, gatewayHome, nodeUpstream } from '../helpers/gateway.js';

const TOKEN = 'profiles-e2e-token-0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function connectOAuth(url: string, provider: MemoryOAuthProvider, tries = 3): Promise<Client> {
  const client = new Client({ name: provider.name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  } catch (error) {
    // fetch's pool may still hold a keep-alive socket to the server before the restart: a client reconnects.
    if (tries <= 1 || !String((error as Error).message).includes('fetch failed')) throw error;
    return connectOAuth(url, provider, tries - 1);
  }
  return client;
}

/** Registers, waits for the owner's approval, exchanges the code: the provider then holds tokens. */
async function authorize(url: string, provider: MemoryOAuthProvider, stateFile: string): Promise<string> {
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const probe = new Client({ name: provider.name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await expect(probe.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const outcome = await authorizeInBrowser(provider.authorizationUrl!, ownerApproves(stateFile));
  await first.finishAuth(outcome.redirect.searchParams);
  return provider.clientInformation()!.client_id;
}

describe('profiles per caller', () => {
  let dir: string;
  let root: string;
  let stateFile: string;
  let server: TestHttpServer;
  const phone = new MemoryOAuthProvider('http://127.0.0.1:1/callback', 'phone connector');
  const desktop = new MemoryOAuthProvider('http://127.0.0.1:1/callback', 'desktop connector');
  const grants = (root: string): ConfigInput => ({
    filesystem: { write: true, roots: [root] },
    shell: { enabled: true, allowedCommands: ['ls'] },
    process: { list: true },
  });

  beforeAll(async () => {
    dir = makeTempDir('profiles-e2e-');
    root = path.join(dir, 'root');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
    stateFile = oauthStatePath(dir);
    const port = await freePort();
    const base = { ...grants(root), server: { auth: 'bearer+oauth' as const, token: TOKEN, port } };
    // Both connectors register and are approved; then the owner binds them and restarts the server.
    const first = await startTestServer(base, { oauth: { stateFile } });
    const phoneId = await authorize(first.url, phone, stateFile);
    const desktopId = await authorize(first.url, desktop, stateFile);
    await first.close();
    server = await startTestServer(
      { ...base, profiles: { active: 'Read-only', token: 'Desktop', clients: { [phoneId]: 'Read-only', [desktopId]: 'Coding' } } },
      { oauth: { stateFile } },
    );
  });
  afterAll(async () => {
    await server?.close();
    removeDir(dir);
  });

  it("gives each OAuth client its own profile's tools/list and refuses the phone a write, naming its profile", async () => {
    const phoneClient = await connectOAuth(server.url, phone);
    const desktopClient = await connectOAuth(server.url, desktop);
    try {
      const phoneTools = (await phoneClient.listTools()).tools;
      const desktopTools = (await desktopClient.listTools()).tools.map((t) => t.name);
      for (const tool of phoneTools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(phoneTools.map((t) => t.name)).toEqual(expect.arrayContaining(['system.info', 'fs.read', 'process.list']));
      expect(desktopTools).toEqual(expect.arrayContaining(['system.info', 'fs.read', 'fs.write', 'shell.exec']));
      expect(phoneTools.map((t) => t.name)).not.toContain('fs.write');

      const refused = await phoneClient.callTool({ name: 'fs.write', arguments: { path: path.join(root, 'b.txt'), content: 'x' } });
      expect(refused.isError).toBe(true);
      const words = (refused.content as { text: string }[])[0]!.text;
      expect(words).toContain('CAPABILITY_DISABLED: fs.write is outside the profile "Read-only"');
      expect(words).toContain('profiles.clients binds this OAuth client');
      expect(words).toContain('only tools that change nothing');
      expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);

      // system.info lists what this caller has, as tools/list does.
      const info = await phoneClient.callTool({ name: 'system.info', arguments: {} });
      const listed = (info.structuredContent as { capabilities: { tools: string[] } }).capabilities.tools;
      expect(listed).toContain('fs.read');
      expect(listed).not.toContain('fs.write');
      const desktopInfo = await desktopClient.callTool({ name: 'system.info', arguments: {} });
      expect((desktopInfo.structuredContent as { capabilities: { tools: string[] } }).capabilities.tools).toContain('fs.write');

      // The same tool through the desktop's credential works: the credential, not a session, decides.
      const written = await desktopClient.callTool({ name: 'fs.write', arguments: { path: path.join(root, 'b.txt'), content: 'x' } });
      expect(written.isError).toBeFalsy();
      expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('x');
    } finally {
      await phoneClient.close();
      await desktopClient.close();
    }
  });

  it('gives the static token its profile: Desktop has no commands, and says what it allows', async () => {
    const client = await connectModernHttp(server.url, TOKEN);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['system.info', 'fs.read', 'process.list']));
      expect(names).not.toContain('shell.exec');
      expect(names).not.toContain('fs.write');
      const refused = await client.callTool({ name: 'shell.exec', arguments: { command: 'ls', args: [] } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('outside the profile "Desktop" this caller has (profiles.token binds the static token)');
      expect(textOf(refused)).toContain('"Desktop" allows read files, see the screen');
    } finally {
      await client.close();
    }
  });

  it('keeps refusing what the config never granted with the setting that grants it', async () => {
    const client = await connectOAuth(server.url, desktop);
    try {
      const refused = await client.callTool({ name: 'process.kill', arguments: { pid: 1 } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]!.text).toContain('not granted on this server; the owner grants it with process.kill');
    } finally {
      await client.close();
    }
  });
});

describe('profiles over stdio', () => {
  let home: string;
  beforeAll(() => {
    home = makeTempDir('profiles-stdio-');
    fs.mkdirSync(path.join(home, 'root'));
  });
  afterAll(() => removeDir(home));

  it('serves the active profile', async () => {
    const config = path.join(home, 'config.json');
    const settings = { filesystem: { write: true, roots: [path.join(home, 'root')] }, profiles: { active: 'Read-only' } };
    fs.writeFileSync(config, JSON.stringify(settings));
    const client = await connectModernStdio(['--config', config], childEnv(home) as Record<string, string>);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('fs.read');
      expect(names).not.toContain('fs.write');
      const refused = await client.callTool({ name: 'fs.write', arguments: { path: path.join(home, 'root', 'x'), content: 'x' } });
      expect(textOf(refused)).toContain('outside the profile "Read-only" this caller has (profiles.active)');
    } finally {
      await client.close();
    }
  });

  it("keeps the other MCP servers' tools from a profile without the gateway (Read-only: their annotations are theirs to claim)", async () => {
    const gateway = gatewayHome();
    // The names listed, and what a call to `call` answers (a model may call a tool it saw under another profile).
    const names = async (active: string, call?: string) => {
      gateway.write({ gateway: { servers: [nodeUpstream('fixture', FIXTURE, { folders: [gateway.data] })] }, profiles: { active } });
      const client = await connectFront('stdio modern', gateway);
      try {
        const listed = (await client.listTools()).tools.map((t) => t.name);
        const answer = call ? await client.callTool({ name: call, arguments: {} }) : undefined;
        return { listed, answer };
      } finally {
        await client.close();
      }
    };
    try {
      const upstream = (await names('Full')).listed.filter((name) => name.includes('fixture'));
      expect(upstream).toContain('fixture.noop'); // the test clients speak dotted names; the server exposes fixture_noop
      const readOnly = await names('Read-only', 'fixture_noop');
      expect(readOnly.listed).toContain('system.info');
      for (const name of upstream) expect(readOnly.listed).not.toContain(name);
      expect(readOnly.answer!.isError).toBe(true);
      expect(textOf(readOnly.answer!)).toContain('fixture_noop is outside the profile "Read-only" this caller has (profiles.active)');
      expect(textOf(readOnly.answer!)).toContain("a read-only profile never has the other MCP servers' tools");
      const coding = await names('Coding', 'fixture_noop');
      expect(textOf(coding.answer!)).toContain(`"Coding" does not include the other MCP servers' tools (profiles.sets: gateway)`);
    } finally {
      gateway.remove();
    }
  });
});
