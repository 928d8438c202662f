/**
 * The gateway's end-to-end setting: a temp home, a config file listing upstreams, and the built
 * CLI serving it over stdio or HTTP to real clients (v1 and v2). Upstreams are real programs:
 * the official servers from npm and the fixture in test/e2e/fixtures/gateway-upstream.mjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectLegacyHttp, connectLegacyStdio, connectModernHttp, connectModernStdio, type TestClient } from './clients.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { childEnv, CLI, REPO_ROOT, startCliHttp } from './servers.js';
import { makeTempDir, removeDir, writeJson } from './temp.js';

export const FIXTURE = path.join(REPO_ROOT, 'test/e2e/fixtures/gateway-upstream.mjs');
const pkg = (name: string, file = 'dist/index.js') => path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol', name, file);
export const EVERYTHING = pkg('server-everything');
export const MEMORY = pkg('server-memory');
export const FILESYSTEM = pkg('server-filesystem');

export type Upstream = NonNullable<NonNullable<ConfigInput['gateway']>['servers']>[number];

/** A node program as an upstream entry. */
export function nodeUpstream(name: string, script: string, extra: Partial<Upstream> = {}): Upstream {
  return { name, command: 'node', args: [script], ...extra } as Upstream;
}

/** A raw JSON-RPC upstream, sending what no SDK server would: its answers read from a spec file at every message. */
export const RAW_UPSTREAM = path.join(REPO_ROOT, 'test/e2e/fixtures/raw-upstream.mjs');

/** Makes `lists` what the raw upstream "raw" (given `home.data`) answers from its next message, and configures it so. */
export function serveRaw(home: GatewayHome, lists: object, extra: Partial<Upstream> = {}): void {
  const spec = path.join(home.data, 'spec.json');
  fs.writeFileSync(spec, JSON.stringify(lists));
  home.write({ gateway: { servers: [nodeUpstream('raw', RAW_UPSTREAM, { folders: [home.data], ...extra, env: { RAW_SPEC: spec, ...extra.env } })] } });
}

export interface GatewayHome {
  home: string;
  /** A folder upstreams may be given. */
  data: string;
  configFile: string;
  appDir: string;
  env: NodeJS.ProcessEnv;
  write(input: ConfigInput): void;
  /** Secret values as `chatgpt-mcp gateway set-secret` keeps them without a keyring. */
  storeSecrets(values: Record<string, string>): void;
  remove(): void;
}

export function gatewayHome(): GatewayHome {
  const home = makeTempDir('chatgpt-mcp-gateway-');
  const data = path.join(home, 'data');
  fs.mkdirSync(data);
  const configFile = path.join(home, 'config.json');
  const appDir = path.join(home, '.config', 'chatgpt-mcp');
  // No session bus: gateway secrets go to the owner-only file in the temp home, never a real keyring.
  const env = childEnv(home, { PATH: process.env.PATH ?? '/usr/bin:/bin', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
  return {
    home,
    data,
    configFile,
    appDir,
    env,
    write: (input) => void writeJson(configFile, { ...input, server: { auth: 'none', ...input.server } }),
    storeSecrets: (values) => {
      fs.mkdirSync(appDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(appDir, 'gateway-secrets.json'), JSON.stringify(values), { mode: 0o600 });
    },
    remove: () => removeDir(home),
  };
}

export type Front = 'stdio modern' | 'stdio legacy' | 'http modern' | 'http legacy';

/** A client connected to the CLI serving `home`'s config through `front`; close() ends the server too. */
export async function connectFront(front: Front, home: GatewayHome): Promise<TestClient & { child?: ChildProcess }> {
  const env = home.env as Record<string, string>;
  const args = ['--config', home.configFile];
  if (front === 'stdio modern') return connectModernStdio(args, env);
  if (front === 'stdio legacy') return connectLegacyStdio(args, env);
  const server = await startCliHttp(args, env);
  const client = front === 'http modern' ? await connectModernHttp(server.url) : await connectLegacyHttp(server.url);
  return {
    ...client,
    child: server.child,
    async close() {
      await client.close();
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The text blocks of a result, joined. */
export function texts(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/**
 * A stdio host with the v1 SDK's own Client, kept connected (as Claude Desktop keeps its
 * connection): for tests of what it is told, with notification handlers of their own.
 */
export async function connectStdioHost(home: GatewayHome): Promise<Client> {
  const host = new Client({ name: 'stdio-host', version: '1.0.0' });
  await host.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--config', home.configFile],
      env: home.env as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return host;
}
